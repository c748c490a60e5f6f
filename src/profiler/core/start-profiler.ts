import { type Server } from 'node:http';
import { type Env } from '../../config/env-values';
import { type RedisConfig } from '../../redis/redis-config';
import { startAppIoCapture } from '../app-io/start-app-io-capture';
import { type ProfilerStats } from '../assemble-profiler';
import { defaultCollectors } from '../collect/collectors/default-collectors';
import { type ProfileCollector } from '../collector';
import { createMemoryProfiler } from '../memory-profiler';
import { MEMORY_RETENTION_DEFAULTS, PROFILE_STORES, type ProfilerConfig, type ProfileStoreKind } from '../profiler-config';
import { readProfilerConfig } from '../read-profiler-config';
import { type ProfileStorage } from '../storage/profile-storage';
import { DEFAULT_PANELS } from '../ui/panel/panel-registry';
import { type ProfileWriter } from '../write/profile-writer';
import { type ProfiledRequest } from './profiled-request';
import { type ProfilerPages } from './profiler-pages';
import { type RequestStart } from './request-start';
import { type StoredProfiler } from './start-redis-profiler';

export interface StartProfilerOptions {
  /** Where the settings are read: REDIS_URL (or REDIS_CLUSTER_NODES), REDIS_PREFIX and the PROFILER_* settings; `process.env` by default. */
  readonly env?: Env;
  /**
   * Where profiles are kept: `redis` (REDIS_URL, or REDIS_CLUSTER_NODES; shared by every process
   * and machine using it) or `memory` (this process only, bounded by PROFILER_MAX_PROFILES,
   * default 1,000, and PROFILER_MAX_BYTES, default 64 MiB). By default `redis` when the
   * environment names a Redis, else `memory`.
   */
  readonly storage?: ProfileStoreKind;
  /** Collectors of the application's own, recorded after Loupe's. */
  readonly collectors?: readonly ProfileCollector[];
  /** Where the profiler says what goes wrong (a dropped profile, Redis away), a line a second at most; `console.warn` by default. */
  readonly log?: (line: string) => void;
}

/** The settings a started profiler read, validated. */
export interface StartedProfilerConfig {
  /** Where its profiles are kept. */
  readonly storage: ProfileStoreKind;
  /** The Redis it uses (its password is in `url`: do not show it); `null` in memory. */
  readonly redis: RedisConfig | null;
  readonly profiler: ProfilerConfig;
}

/** A started profiler, for a server that is not Loupe's kernel: one handle per request. */
export interface StartedProfiler {
  readonly config: StartedProfilerConfig;
  /**
   * Starts profiling a request: run its handler in `handle.run()`, give its response the token of
   * `handle.respond(status)`, and end it with `handle.end(response)` once it is sent (see ProfiledRequest).
   */
  startRequest(start: RequestStart): ProfiledRequest;
  /** Where profiles are read: the same storage the `/_profiler` pages and the JSON API read (and, in Redis, the CLI). */
  readonly storage: ProfileStorage;
  /** Stores finished profiles off the request path; `whenIdle()` resolves once the queued ones are stored. */
  readonly writer: ProfileWriter;
  stats(): ProfilerStats;
  /**
   * The profiler's pages (`/_profiler…`, `/_wdt…`: profiles, search, JSON API, toolbar content) for
   * the server to mount, under the same access rule as Loupe's own; loaded on first use.
   */
  pages(): ProfilerPages;
  /**
   * Serves the live feed's WebSocket (`/_profiler/live`: the search page's live list) on
   * `server`'s upgrades, under the pages' access rule, with `ws` (loaded on first use); answers
   * how to stop. Other upgrades are left to the server's own listeners.
   */
  serveLiveFeed(server: Server): () => void;
  /** Stores what is queued, stops capturing the application's I/O, closes the profiler's Redis connections. */
  close(): Promise<void>;
}

/** Where profiles go by default: to Redis when the environment names one, else into memory. */
export function defaultProfileStore(env: Env): ProfileStoreKind {
  const named = (name: string): boolean => (env[name] ?? '').trim() !== '';
  return named('REDIS_URL') || named('REDIS_CLUSTER_NODES') ? 'redis' : 'memory';
}

/**
 * The profiler on its own, for any Node.js server (node:http, Express, Fastify, Hono, Koa…):
 * reads its own settings, keeps profiles in Redis when REDIS_URL (or REDIS_CLUSTER_NODES) is set
 * and in memory otherwise, and captures the application's SQL, HTTP calls and Redis commands
 * into the request whose code makes them. A Redis that does not answer never stops the start:
 * requests are served without profiles until it does. Loupe's kernel drives the same core.
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
  const storage = options.storage ?? defaultProfileStore(env);
  if (!(PROFILE_STORES as readonly string[]).includes(storage)) throw new TypeError(`The profiler's storage is "redis" or "memory", not "${String(storage)}".`);
  const log = options.log ?? ((line: string) => console.warn(line));
  const profilerConfig = readProfilerConfig(env, storage === 'memory' ? MEMORY_RETENTION_DEFAULTS : undefined);
  const collectors = [...defaultCollectors({ secretCookies: new Set(), slowMs: profilerConfig.slowCallMs }), ...(options.collectors ?? [])];
  const parts = { collectors, panels: DEFAULT_PANELS };
  let redis: RedisConfig | null = null;
  let stored: StoredProfiler;
  if (storage === 'memory') {
    const profiler = createMemoryProfiler(profilerConfig, parts, log);
    stored = { profiler, isConnected: () => true, close: () => profiler.close() };
  } else {
    // Loaded only for Redis: an application that keeps its profiles in memory loads no Redis client.
    const { readRedisConfig } = require('../../redis/redis-config') as typeof import('../../redis/redis-config');
    const { startRedisProfiler } = require('./start-redis-profiler') as typeof import('./start-redis-profiler');
    redis = readRedisConfig(env);
    stored = await startRedisProfiler({ redis, profiler: profilerConfig }, parts, log);
  }
  const config: StartedProfilerConfig = Object.freeze({ storage, redis, profiler: profilerConfig });
  const { profiler } = stored;
  const stopCapture = startAppIoCapture(profilerConfig.capture);
  let pages: ProfilerPages | null = null;
  const loadPages = (): ProfilerPages => {
    const { createProfilerPages } = require('./profiler-pages') as typeof import('./profiler-pages');
    const { profilerPagesOptions } = require('./profiler-pages-options') as typeof import('./profiler-pages-options');
    return createProfilerPages(
      profilerPagesOptions(config, {
        storage: profiler.storage,
        isStorageConnected: () => stored.isConnected(),
        stats: () => profiler.stats(),
        droppedReason: (token) => profiler.writer.droppedReason(token),
        panels: profiler.panels,
      }),
    );
  };
  const liveFeeds = new Set<() => void>();
  const serveLiveFeed = (server: Server): (() => void) => {
    const { attachWebSocketRoute } = require('../serve/attach-web-socket-route') as typeof import('../serve/attach-web-socket-route');
    const { createLiveSocketRoute } = require('../ui/live/live-socket') as typeof import('../ui/live/live-socket');
    const { createIpRangeMatcher } = require('../../http/ip-range-matcher') as typeof import('../../http/ip-range-matcher');
    const route = createLiveSocketRoute(profiler.live, createIpRangeMatcher(profilerConfig.allowedIps), profilerConfig.allowedHosts);
    const attached = attachWebSocketRoute(server, route, (error) => log(`Profiler: the live feed is unavailable: ${error instanceof Error ? error.message : String(error)}`));
    const stop = (): void => {
      if (liveFeeds.delete(stop)) attached.close();
    };
    liveFeeds.add(stop);
    return stop;
  };
  return {
    pages: () => (pages ??= loadPages()),
    serveLiveFeed,
    config,
    startRequest: (start) => profiler.core.startRequest(start),
    storage: profiler.storage,
    writer: profiler.writer,
    stats: () => profiler.stats(),
    close: async () => {
      for (const stop of [...liveFeeds]) stop();
      stopCapture();
      await stored.close();
    },
  };
}
