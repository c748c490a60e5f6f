/**
 * `loupe-kernel/node`: Loupe's profiler for any node:http server (Koa, NestJS, a plain handler).
 * Loads the profiler only when it is on (see profileServer).
 */
import { type Server } from 'node:http';
import { isProfilingEnabled } from '../is-profiling-enabled';
import { type ProfiledServer, type ProfileServerOptions } from './profile-server';

export { type ProfiledServer, type ProfileServerOptions } from './profile-server';
export { type StartedProfiler } from '../../core/start-profiler';

/** Profiles every request of `server`; `null` when the profiler is off (NODE_ENV=production, or `enabled: false`). */
export async function profileServer(server: Server, options: ProfileServerOptions = {}): Promise<ProfiledServer | null> {
  if (!isProfilingEnabled(options)) return null;
  const { profileServer: start } = require('./profile-server') as typeof import('./profile-server');
  return start(server, options);
}
