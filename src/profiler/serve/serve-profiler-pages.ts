import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { LoupeError } from '../../errors/loupe-error';
import { createIpRangeMatcher } from '../../http/ip-range-matcher';
import { closeRedis, connectRedis } from '../../redis/connect-redis';
import { type RedisConfig } from '../../redis/redis-config';
import { requestStartOf } from '../adapters/request-start-of';
import { writePage } from '../adapters/write-page';
import { createProfilerPages, type ProfilerPages } from '../core/profiler-pages';
import { profilerPagesOptions } from '../core/profiler-pages-options';
import { type ProfilerConfig } from '../profiler-config';
import { PROFILER_PREFIX, ProfilerPaths } from '../profiler-paths';
import { profileKeyLayout } from '../storage/profile-keys';
import { RedisProfileStorage } from '../storage/redis-profile-storage';
import { RedisLiveFeed } from '../ui/live/redis-live-feed';
import { createLiveSocketRoute } from '../ui/live/live-socket';
import { type PanelDefinition } from '../ui/panel/panel-definition';
import { DEFAULT_PANELS } from '../ui/panel/panel-registry';
import { attachWebSocketRoute } from './attach-web-socket-route';

export interface ServeProfilerPagesOptions {
  /** Where profiles are read (REDIS_URL or REDIS_CLUSTER_NODES, REDIS_PREFIX) and the pages' settings (PROFILER_*). */
  readonly config: { readonly redis: RedisConfig; readonly profiler: ProfilerConfig };
  /** 0 picks a free port. */
  readonly port: number;
  readonly host: string;
  /** The panels of the application's plugins, after Loupe's. */
  readonly panels?: readonly PanelDefinition[];
  /** Where what goes wrong outside a page is said (the live feed cannot subscribe). */
  readonly log: (line: string) => void;
}

/** The profiler's pages, served. */
export interface ServedProfilerPages {
  /** The address it listens on, e.g. `http://127.0.0.1:8010` (an IPv6 host in brackets). */
  readonly origin: string;
  /** Stops answering, ends the live feed's clients and closes the Redis connections. */
  close(): Promise<void>;
}

/** The plain answer to a path that is none of the profiler's. */
function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-Content-Type-Options': 'nosniff' }).end(`Not Found: this server answers the profiler's pages only, under ${PROFILER_PREFIX}.\n`);
}

/** The server's requests: the profiler's pages, `/` sent to them, every other path a 404. */
function handlerOf(pages: ProfilerPages): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const start = requestStartOf(req);
    const path = start.url.split('?')[0] ?? '';
    if (pages.owns(path)) {
      void pages.serve(start).then((page) => writePage(res, page));
      return;
    }
    if (path === '/' && (start.method === 'GET' || start.method === 'HEAD')) {
      res.writeHead(302, { Location: ProfilerPaths.HOME }).end();
      return;
    }
    notFound(res);
  };
}

function listen(server: http.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(new LoupeError('LOUPE_ERR_SERVER_LISTEN_FAILED', `Cannot listen on ${host}:${port}: the address is in use or not available.`, { cause: error })));
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

/**
 * Serves the profiler's pages (`/_profiler…`, `/_wdt…`: profiles, search, status, compare, the
 * JSON API and the live feed's WebSocket) on a node:http server of their own, reading the profiles
 * every process sharing the Redis and the key prefix stores: for an application that cannot mount
 * routes, or several services sharing one Redis. It only reads: no writer, no token, no request of
 * its own profiled. The access rule is the mounted pages' (PROFILER_ALLOWED_IPS, PROFILER_ALLOWED_HOSTS).
 * Rejects with the LoupeError of connectRedis, which says how to start a Redis, when none answers.
 */
export async function serveProfilerPages(options: ServeProfilerPagesOptions): Promise<ServedProfilerPages> {
  const { config } = options;
  const reader = await connectRedis(config.redis.url, 'loupe-profiler-pages', config.redis);
  // Retention applies to writes only; the settings read are passed for the status page to be true.
  const storage = new RedisProfileStorage({ redis: reader, ...profileKeyLayout(config.redis), lifetime: config.profiler.lifetime, maxProfiles: config.profiler.maxProfiles, maxBytes: config.profiler.maxBytes });
  const live = new RedisLiveFeed(reader, config.redis.prefix, config.redis.connectTimeoutMs);
  const pages = createProfilerPages(
    profilerPagesOptions(config, {
      storage,
      isStorageConnected: () => reader.status === 'ready',
      // A reader has no counters, and knows of a dropped profile only by its tombstone, which the pages read anyway.
      stats: () => null,
      droppedReason: () => undefined,
      panels: [...DEFAULT_PANELS, ...(options.panels ?? [])],
    }),
  );
  const server = http.createServer(handlerOf(pages));
  const liveRoute = createLiveSocketRoute(live, createIpRangeMatcher(config.profiler.allowedIps), config.profiler.allowedHosts);
  const sockets = attachWebSocketRoute(server, liveRoute, (error) => options.log(`The live feed is unavailable: ${error instanceof Error ? error.message : String(error)}`));
  try {
    const address = await listen(server, options.port, options.host);
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return {
      origin: `http://${host}:${address.port}`,
      close: async () => {
        sockets.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
        await live.close();
        await closeRedis(reader);
      },
    };
  } catch (error) {
    await live.close();
    await closeRedis(reader);
    throw error;
  }
}
