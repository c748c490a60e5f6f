/**
 * `loupe-kernel/fastify`: Loupe's profiler as a Fastify 5 plugin. Loads the profiler only when it
 * is on (see loupe).
 */
import { type FastifyInstance } from 'fastify';
import { isProfilingEnabled } from '../is-profiling-enabled';
import { type LoupeOptions } from './profile-fastify';

export { type LoupeOptions } from './profile-fastify';
export { type StartedProfiler } from '../../core/start-profiler';

/**
 * Profiles every request of the Fastify application it is registered in: each gets its profile
 * (the lifecycle's hooks as states, the route pattern and handler, the SQL, HTTP calls and Redis
 * commands its code makes, `request.log`'s lines, its errors), `X-Debug-Token` and its link, `Server-Timing`, and
 * the toolbar in its HTML pages; the application answers the profiler's pages. Profiles are kept
 * in memory unless REDIS_URL names a Redis to share them; a Redis that does not answer never
 * fails the registration (requests are then served without profiles). Register it
 * first, so that its hooks run before the application's. Does nothing, loading nothing of the
 * profiler, when it is off (NODE_ENV=production, or `enabled: false`).
 *
 * ```ts
 * const app = Fastify();
 * await app.register(require('loupe-kernel/fastify').loupe);
 * ```
 */
export async function loupe(app: FastifyInstance, options: LoupeOptions = {}): Promise<void> {
  if (!isProfilingEnabled(options)) return;
  const { profileFastify } = require('./profile-fastify') as typeof import('./profile-fastify');
  await profileFastify(app, options);
}

// As fastify-plugin marks a plugin (without depending on it): its hooks, routes and decorator
// belong to the application that registers it, not to an encapsulated child context.
Object.assign(loupe, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'loupe-kernel' });
