import { type Context, type MiddlewareHandler } from 'hono';
import { type StartedProfiler, type StartProfilerOptions } from '../../core/start-profiler';
import { type EnabledOptions } from '../is-profiling-enabled';

/** The options of `loupe()`; all optional, the rest read from the environment (REDIS_URL, REDIS_PREFIX, PROFILER_*). */
export interface LoupeOptions extends StartProfilerOptions, EnabledOptions {
  /** Serve the profiler's pages (`/_profiler…`, `/_wdt…`) from the application; on by default. */
  readonly pages?: boolean;
  /** Add a `Server-Timing` header to every response (the browser's network panel shows it); on by default. */
  readonly serverTiming?: boolean;
  /**
   * The client's address, where the runtime is not `@hono/node-server` (which gives it): for
   * instance `(c) => getConnInfo(c).remote.address` with `getConnInfo` of `hono/bun` or
   * `hono/deno`. The toolbar and the profiler's pages are for clients of PROFILER_ALLOWED_IPS only.
   */
  readonly clientAddress?: (c: Context) => string | undefined;
}

/** The middleware `loupe()` answers, with what its owner may do besides mounting it. */
export interface LoupeMiddleware extends MiddlewareHandler {
  /** Starts the profiler now rather than on the first request (an invalid setting then fails here; a Redis away does not); `null` when off. */
  start(): Promise<StartedProfiler | null>;
  /** Stops profiling (requests then go through untouched) and closes the profiler. */
  close(): Promise<void>;
}
