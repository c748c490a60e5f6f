/**
 * The listeners the profiler itself registers (see `defineListener` in src/profiler): the
 * Performance panel folds them away by default, since they are the profiler's cost and not the
 * application's. A test checks that this list names every one of them.
 */
export const PROFILER_LISTENER_NAMES: ReadonlySet<string> = new Set([
  'ProfilerListener',
  'ProfilerAccessListener',
  'WebDebugToolbarListener',
  'DebugTokenLinkListener',
  'ErrorPageProfileLinkListener',
]);
