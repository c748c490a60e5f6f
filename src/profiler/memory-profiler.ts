import { assembleProfiler, type Profiler } from './assemble-profiler';
import { checkProfilerParts, type ProfilerParts } from './check-profiler-parts';
import { type ProfilerConfig } from './profiler-config';
import { MemoryProfileStorage } from './storage/memory-profile-storage';
import { MemoryTokenSource } from './storage/memory-token-source';
import { MemoryLiveFeed } from './ui/live/memory-live-feed';

/**
 * Builds the profiler on this process's memory, for a server with no Redis: profiles kept as
 * PROFILER_LIFETIME, PROFILER_MAX_PROFILES and PROFILER_MAX_BYTES say (the oldest removed first),
 * tokens from a counter, the live feed in-process. Nothing to connect, so nothing to wait for or
 * to lose; nothing shared with another process, and gone when the process ends.
 */
export function createMemoryProfiler(config: ProfilerConfig, parts: ProfilerParts, log: (line: string) => void): Profiler {
  const checked = checkProfilerParts(parts);
  const storage = new MemoryProfileStorage({ lifetime: config.lifetime, maxProfiles: config.maxProfiles, maxBytes: config.maxBytes });
  const live = new MemoryLiveFeed();
  return assembleProfiler(
    config,
    {
      writeStorage: storage,
      readStorage: storage,
      tokens: new MemoryTokenSource({ isTaken: (token) => storage.has(token) }),
      publisher: live,
      live,
      notProfiledReason: 'The profile queue is full: the profile could not be stored.',
      stopGraceMs: 1_000,
      close: () => live.close(),
    },
    checked,
    log,
  );
}
