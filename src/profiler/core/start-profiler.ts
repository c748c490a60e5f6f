import { type Env } from '../../config/env-values';
import { closeRedis, connectRedis } from '../../redis/connect-redis';
import { readRedisConfig, type RedisConfig } from '../../redis/redis-config';
import { startAppIoCapture } from '../app-io/start-app-io-capture';
import { defaultCollectors } from '../collect/collectors/default-collectors';
import { type ProfileCollector } from '../collector';
import { createProfiler, type ProfilerStats } from '../profiler';
import { type ProfilerConfig } from '../profiler-config';
import { readProfilerConfig } from '../read-profiler-config';
import { type RedisProfileStorage } from '../storage/redis-profile-storage';
import { DEFAULT_PANELS } from '../ui/panel/panel-registry';
import { type ProfileWriter } from '../write/profile-writer';
import { type ProfiledRequest } from './profiled-request';
import { type ProfilerPages } from './profiler-pages';
import { type RequestStart } from './request-start';

export interface StartProfilerOptions {
  /** Where the settings are read: REDIS_URL (or REDIS_CLUSTER_NODES), REDIS_PREFIX and the PROFILER_* settings; `process.env` by default. */
  readonly env?: Env;
  /** Collectors of the application's own, recorded after Loupe's. */
  readonly collectors?: readonly ProfileCollector[];
  /** Where the profiler says what goes wrong (a dropped profile, Redis away), a line a second at most; `console.warn` by default. */
  readonly log?: (line: string) => void;
}

/** A started profiler, for a server that is not Loupe's kernel: one handle per request. */
export interface StartedProfiler {
  /** The settings it read, validated (the Redis password is in `redis.url`: do not show it). */
  readonly config: { readonly redis: RedisConfig; readonly profiler: ProfilerConfig };
  /**
   * Starts profiling a request: run its handler in `handle.run()`, give its response the token of
   * `handle.respond(status)`, and end it with `handle.end(response)` once it is sent (see ProfiledRequest).
   */
  startRequest(start: RequestStart): ProfiledRequest;
  /** Where profiles are read: the same storage the `/_profiler` pages, the JSON API and the CLI read. */
  readonly storage: RedisProfileStorage;
  /** Stores finished profiles off the request path; `whenIdle()` resolves once the queued ones are stored. */
  readonly writer: ProfileWriter;
  stats(): ProfilerStats;
  /**
   * The profiler's pages (`/_profiler…`, `/_wdt…`: profiles, search, JSON API, toolbar content) for
   * the server to mount, under the same access rule as Loupe's own; loaded on first use.
   */
  pages(): ProfilerPages;
  /** Stores what is queued, stops capturing the application's I/O, closes the profiler's Redis connections. */
  close(): Promise<void>;
}

/**
 * The profiler on its own, for any Node.js server (node:http, Express, Fastify, Hono, Koa…):
 * reads its own settings, connects to Redis, and captures the application's SQL, HTTP calls and
 * Redis commands into the request whose code makes them. Loupe's kernel drives the same core.
 *
 * ```ts
 * const profiler = await startProfiler();
 * http.createServer((req, res) => {
 *   const request = profiler.startRequest({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, remoteAddress: req.socket.remoteAddress });
 *   res.on('finish', () => request.end({ status: res.statusCode, headers: res.getHeaders() }));
 *   request.run(() => handle(req, res, request));
 * });
 * ```
 */
export async function startProfiler(options: StartProfilerOptions = {}): Promise<StartedProfiler> {
  const env = options.env ?? process.env;
  const config = { redis: readRedisConfig(env), profiler: readProfilerConfig(env) };
  const log = options.log ?? ((line: string) => console.warn(line));
  const reader = await connectRedis(config.redis.url, 'loupe-profiler', config.redis);
  try {
    const collectors = [...defaultCollectors({ secretCookies: new Set(), slowMs: config.profiler.slowCallMs }), ...(options.collectors ?? [])];
    const profiler = await createProfiler(config, reader, { collectors, panels: DEFAULT_PANELS }, log);
    const stopCapture = startAppIoCapture(config.profiler.capture);
    let pages: ProfilerPages | null = null;
    const loadPages = (): ProfilerPages => {
      const { createProfilerPages } = require('./profiler-pages') as typeof import('./profiler-pages');
      const { profilerPagesOptions } = require('./profiler-pages-options') as typeof import('./profiler-pages-options');
      return createProfilerPages(
        profilerPagesOptions(config, {
          storage: profiler.storage,
          isStorageConnected: () => reader.status === 'ready',
          stats: () => profiler.stats(),
          droppedReason: (token) => profiler.writer.droppedReason(token),
          panels: profiler.panels,
        }),
      );
    };
    return {
      pages: () => (pages ??= loadPages()),
      config,
      startRequest: (start) => profiler.core.startRequest(start),
      storage: profiler.storage,
      writer: profiler.writer,
      stats: () => profiler.stats(),
      close: async () => {
        stopCapture();
        await profiler.close();
        await closeRedis(reader);
      },
    };
  } catch (error) {
    reader.disconnect();
    throw error;
  }
}
