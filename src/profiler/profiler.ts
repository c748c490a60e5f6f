import { invalid } from '../config/env-values';
import { type RedisClient } from '../redis/redis-client';
import { type RedisConfig } from '../redis/redis-config';
import { type ProfilerConfig } from './profiler-config';
import { assembleProfiler, type Profiler } from './assemble-profiler';
import { checkProfilerParts, type ProfilerParts } from './check-profiler-parts';
import { openWriterRedis, whenWriterReady } from './write/connect-writer-redis';
import { RedisLiveFeed } from './ui/live/redis-live-feed';
import { liveChannel } from './ui/live/live-summary';
import { profileKeyLayout } from './storage/profile-keys';
import { RedisProfileStorage, type RedisProfileStorageOptions } from './storage/redis-profile-storage';
import { TokenAllocator } from './storage/token-allocator';

/** The storage options that do not depend on the connection. */
type RedisProfileStorageLayout = Required<Omit<RedisProfileStorageOptions, 'redis' | 'liveChannel'>>;

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

export interface CreateProfilerOptions {
  /**
   * Told why, when Redis does not answer at start (`reader` not ready, or the writer's connection
   * or the first block of tokens not within REDIS_CONNECT_TIMEOUT_MS): the profiler then starts
   * all the same, serving requests without a profile until Redis answers, and goes on by itself
   * once it does. Without it, such a start is an error (Loupe's kernel does not start without its Redis).
   */
  readonly onUnreachable?: (error: unknown) => void;
}

/**
 * Builds the profiler on Redis, on its own writer connection besides `reader`, recording with
 * `parts.collectors` and showing `parts.panels` (both checked first: see checkProfilerParts).
 * Writes never queue while Redis is away (no offline queue) and time out quickly, so a slow or
 * dead Redis never holds a request.
 */
export async function createProfiler(
  config: { readonly redis: RedisConfig; readonly profiler: ProfilerConfig },
  reader: RedisClient,
  parts: ProfilerParts,
  log: (line: string) => void,
  options: CreateProfilerOptions = {},
): Promise<Profiler> {
  const checked = checkProfilerParts(parts);
  const layout = storageLayout(config);
  const writerRedis = openWriterRedis(config.redis.url, 'loupe-profile-writer', config.redis);
  const allocator = new TokenAllocator({ redis: reader, ...profileKeyLayout(config.redis) });
  // Profiles are only collected once the writer can store them: its connection is ready first.
  if (reader.status === 'ready' || options.onUnreachable === undefined) {
    try {
      await whenWriterReady(writerRedis, config.redis.url, config.redis);
      await allocator.start();
    } catch (error) {
      if (options.onUnreachable === undefined) {
        writerRedis.disconnect();
        throw error;
      }
      // The writer and the allocator start by themselves once their connections are ready.
      options.onUnreachable(error);
    }
  }
  const live = new RedisLiveFeed(reader, config.redis.prefix, config.redis.connectTimeoutMs);
  return assembleProfiler(
    config.profiler,
    {
      // The write script announces each batch it stored to the live lists.
      writeStorage: new RedisProfileStorage({ redis: writerRedis, ...layout, liveChannel: liveChannel(config.redis.prefix) }),
      readStorage: new RedisProfileStorage({ redis: reader, ...layout }),
      tokens: allocator,
      connection: writerRedis,
      live,
      notProfiledReason: 'Redis is unavailable: the profile could not be stored.',
      // A batch sent to a hung Redis fails within the command timeout: the stop waits no longer.
      stopGraceMs: config.redis.commandTimeoutMs + 500,
      close: async () => {
        writerRedis.disconnect();
        await live.close();
      },
    },
    checked,
    log,
  );
}

export { type ProfilerParts } from './check-profiler-parts';
export { type Profiler, type ProfilerStats } from './assemble-profiler';
