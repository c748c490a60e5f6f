/**
 * `loupe-kernel/hono`: Loupe's profiler as a Hono 4 middleware. Loads the profiler only when it
 * is on (see loupe), and nothing of Hono's: its types only.
 */
import { type Context, type Next } from 'hono';
import { isProfilingEnabled } from '../is-profiling-enabled';
import { type LoupeMiddleware, type LoupeOptions } from './loupe-middleware';

export { type LoupeMiddleware, type LoupeOptions } from './loupe-middleware';
export { type StartedProfiler } from '../../core/start-profiler';

/** What `loupe()` answers when the profiler is off: it only calls `next()`. */
function passThrough(): LoupeMiddleware {
  const middleware = async (_c: Context, next: Next): Promise<undefined> => {
    await next();
    return undefined;
  };
  return Object.assign(middleware, { start: () => Promise.resolve(null), close: () => Promise.resolve() });
}

/**
 * Profiles the requests of a Hono application on `@hono/node-server`; mount it first, before any
 * other middleware. Each request gets its profile, `X-Debug-Token` and its link, `Server-Timing`,
 * the toolbar in its HTML pages, and the SQL, HTTP calls and Redis commands of the middleware and
 * handlers after it; the profile names the route (`GET /users/:id`) and handler, times each
 * middleware and the handler, and holds the errors Hono hands to `onError` and its notFound 404s.
 * The application also answers the profiler's pages (`/_profiler…`, `/_wdt…`). The profiler
 * starts on the first request (or `await profiler.start()`); off under NODE_ENV=production or
 * `enabled: false`, when the middleware only calls `next()`.
 *
 * ```ts
 * const app = new Hono();
 * const profiler = loupe();
 * app.use(profiler);
 * serve({ fetch: app.fetch, port: 3000 });
 * ```
 */
export function loupe(options: LoupeOptions = {}): LoupeMiddleware {
  if (!isProfilingEnabled(options)) return passThrough();
  const { createLoupeMiddleware } = require('./hono-middleware') as typeof import('./hono-middleware');
  return createLoupeMiddleware(options);
}
