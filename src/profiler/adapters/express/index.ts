/**
 * `loupe-kernel/express`: Loupe's profiler as an Express middleware.
 * Loads the profiler only when it is on (see loupe).
 */
import { isProfilingEnabled } from '../is-profiling-enabled';
import { type LoupeMiddleware, type LoupeOptions } from './loupe-middleware';

export { type ErrorMiddleware, type ExpressNext, type LoupeMiddleware, type LoupeOptions } from './loupe-middleware';
export { type StartedProfiler } from '../../core/start-profiler';

/** What `loupe()` answers when the profiler is off: it only passes each request on. */
function passThrough(): LoupeMiddleware {
  return Object.assign((_req: unknown, _res: unknown, next: (error?: unknown) => void) => next(), {
    start: () => Promise.resolve(null),
    errors: () => (error: unknown, _req: unknown, _res: unknown, next: (error?: unknown) => void) => next(error),
    close: () => Promise.resolve(),
  });
}

/**
 * Profiles the requests of an Express application; mount it first, before any other middleware.
 * Each request gets its profile, `X-Debug-Token` and its link, `Server-Timing`, the toolbar in its HTML pages, and
 * the SQL, HTTP calls and Redis commands of the middleware and handlers after it; the profile
 * names the route (`GET /users/:id`) and handler, times each middleware and handler, and holds
 * the errors they raise. The application also answers the profiler's pages (`/_profiler…`,
 * `/_wdt…`). Profiles are kept in memory unless REDIS_URL names a Redis to share them (a Redis that
 * does not answer never stops the application: it is then served without profiles). The profiler
 * starts on the first request (or `await middleware.start()`); off under NODE_ENV=production or
 * `enabled: false`, when the middleware only calls `next()`.
 *
 * ```ts
 * const profiler = loupe();
 * app.use(profiler);
 * ```
 */
export function loupe(options: LoupeOptions = {}): LoupeMiddleware {
  if (!isProfilingEnabled(options)) return passThrough();
  const { createLoupeMiddleware } = require('./express-middleware') as typeof import('./express-middleware');
  return createLoupeMiddleware(options);
}
