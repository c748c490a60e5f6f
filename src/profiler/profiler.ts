import { invalid } from '../config/env-values';
import { type RedisClient } from '../redis/redis-client';
import { type RedisConfig } from '../redis/redis-config';
import { type ProfilerConfig } from './profiler-config';
import { type Listener } from '../kernel/listener';
import { checkProfilerParts, type ProfilerParts } from './check-profiler-parts';
import { debugTokenLinkListener } from './ui/debug-token-link-listener';
import { errorPageProfileLinkListener } from './ui/error-page-profile-link-listener';
import { createProfilerListener } from './collect/profiler-listener';
import { connectWriterRedis } from './write/connect-writer-redis';
import { LiveFeed } from './ui/live/live-feed';
import { RedisLivePublisher } from './ui/live/live-publisher';
import { profileKeyLayout } from './storage/profile-keys';
import { RedisProfileStorage, type RedisProfileStorageOptions } from './storage/redis-profile-storage';
import { ProfileWriter, type WriterStats } from './write/profile-writer';
import { RedactionPolicy } from './collect/redaction-policy';
import { Sampler, type SamplingStats } from './collect/sampler';
import { ProfilerCore } from './core/profiler-core';
import { TokenAllocator } from './storage/token-allocator';
import { type PanelDefinition } from './ui/panel/panel-definition';

/** The storage options that do not depend on the connection. */
type RedisProfileStorageLayout = Required<Omit<RedisProfileStorageOptions, 'redis'>>;

/** The profiler's counters: what was stored, dropped, or never profiled. */
export interface ProfilerStats {
  readonly writer: Readonly<WriterStats>;
  /** Requests served without a token because their profile could not have been stored. */
  readonly notProfiled: number;
  /** What sampling (PROFILER_SAMPLE) left out, and what it kept although not drawn. */
  readonly sampling: Readonly<SamplingStats>;
}

/**
 * What the profiler records and shows: its collectors, and the panels that read them, in menu
 * order. An application passes Loupe's (defaultCollectors, DEFAULT_PANELS) with its own after them.
 */

/** The assembled profiler: its core, the listeners by which Loupe's kernel drives it, where it stores, and its counters. */
export interface Profiler {
  /** What every server drives: tokens, finished requests, and a handle per request for a server that is not Loupe's kernel. */
  readonly core: ProfilerCore;
  readonly listeners: readonly Listener[];
  readonly storage: RedisProfileStorage;
  readonly writer: ProfileWriter;
  /** The panels of the profile page, in menu order, checked against the collectors. */
  readonly panels: readonly PanelDefinition[];
  /** Summaries of the profiles every process sharing the prefix stores, as they are stored. */
  readonly live: LiveFeed;
  stats(): ProfilerStats;
  /** Writes what is queued (bounded by the command timeout), then closes the writer's Redis connection. */
  close(): Promise<void>;
}

/**
 * Where and how long profiles are kept: the key groups of the Redis configuration (one on a
 * single Redis, several sharing hash tags on a cluster) and the retention limits, which every
 * group applies to its share. A share of PROFILER_MAX_BYTES must hold one whole profile.
 */
function storageLayout(config: { readonly redis: RedisConfig; readonly profiler: ProfilerConfig }): RedisProfileStorageLayout {
  const groups = config.redis.profileGroups;
  const { lifetime, maxProfiles, maxBytes, maxProfileBytes } = config.profiler;
  if (maxBytes / groups < maxProfileBytes) {
    throw invalid('PROFILER_MAX_BYTES', String(maxBytes), `at least PROFILER_MAX_PROFILE_BYTES × PROFILER_REDIS_GROUPS (${maxProfileBytes} × ${groups}): each group keeps its share`);
  }
  return { ...profileKeyLayout(config.redis), lifetime, maxProfiles, maxBytes };
}

/**
 * Builds the profiler on its own Redis connection, recording with `parts.collectors` and showing
 * `parts.panels` (both checked first: see checkProfilerParts). Writes never queue while Redis is
 * away (no offline queue) and time out quickly, so a slow or dead Redis never holds a request.
 */
export async function createProfiler(
  config: { readonly redis: RedisConfig; readonly profiler: ProfilerConfig },
  reader: RedisClient,
  parts: ProfilerParts,
  log: (line: string) => void,
): Promise<Profiler> {
  const { collectors, panels } = checkProfilerParts(parts);
  const layout = storageLayout(config);
  // Profiles are only collected once the writer can store them: its connection is ready first.
  const writerRedis = await connectWriterRedis(config.redis.url, 'loupe-profile-writer', config.redis);
  const storage = new RedisProfileStorage({ redis: writerRedis, ...layout });
  const allocator = new TokenAllocator({ redis: reader, ...profileKeyLayout(config.redis) });
  await allocator.start();
  let notProfiled = 0;
  let lastLog = 0;
  const throttledLog = (line: string): void => {
    // One line per second at most: a dead Redis under load would otherwise flood the console.
    const now = Date.now();
    if (now - lastLog < 1_000) return;
    lastLog = now;
    log(line);
  };
  const writer = new ProfileWriter({
    storage,
    redis: writerRedis,
    maxProfileBytes: config.profiler.maxProfileBytes,
    live: new RedisLivePublisher(writerRedis, config.redis.prefix),
    onDrop: (count, reason) => throttledLog(`Profiler: ${count} profile(s) dropped (${writer.stats.dropped} in all): ${reason}`),
  });
  const core = new ProfilerCore({
    allocator,
    writer,
    collectors,
    redaction: new RedactionPolicy({ names: config.profiler.redact, visibleCookies: config.profiler.cookieAllowList }),
    sampler: new Sampler({ rate: config.profiler.sample, slowMs: config.profiler.slowMs }),
    capture: config.profiler.capture,
    recordLimit: config.profiler.maxEntries,
    onNotProfiled: (reason) => {
      notProfiled += 1;
      throttledLog(`Profiler: request served without a profile (${notProfiled} in all): ${reason}`);
    },
  });
  const live = new LiveFeed(reader, config.redis.prefix, config.redis.connectTimeoutMs);
  return {
    core,
    listeners: [createProfilerListener(core), debugTokenLinkListener, errorPageProfileLinkListener],
    storage: new RedisProfileStorage({ redis: reader, ...layout }),
    writer,
    panels,
    live,
    stats: () => ({ writer: { ...writer.stats }, notProfiled, sampling: { ...core.samplingStats } }),
    close: async () => {
      // A batch sent to a hung Redis fails within the command timeout: the stop waits no longer.
      await writer.stop(config.redis.commandTimeoutMs + 500);
      writerRedis.disconnect();
      await live.close();
    },
  };
}

export { type ProfilerParts } from './check-profiler-parts';
