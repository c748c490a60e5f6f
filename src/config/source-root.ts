import { type Env } from './env-values';

/**
 * PROFILER_SOURCE_ROOT: the application's root, whose source lines the debug error page and the
 * profiler's panels show and link to an editor; `null` when unset (the working directory then).
 */
export function readSourceRoot(env: Env): string | null {
  const root = env['PROFILER_SOURCE_ROOT'];
  return root === undefined || root.trim() === '' ? null : root.trim();
}
