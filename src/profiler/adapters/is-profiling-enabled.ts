/** What decides whether an adapter profiles: its `enabled` option, else the environment. */
export interface EnabledOptions {
  /** Whether to profile at all; by default on unless NODE_ENV is `production`. */
  readonly enabled?: boolean;
  /** Where NODE_ENV is read; `process.env` by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Whether the profiler is on: `enabled` when given, else anywhere but NODE_ENV=production (as
 * every development tool of the Node ecosystem reads it). An adapter asks before loading anything
 * of the profiler, so that a production process loads none of it.
 */
export function isProfilingEnabled(options: EnabledOptions): boolean {
  return options.enabled ?? (options.env ?? process.env)['NODE_ENV'] !== 'production';
}
