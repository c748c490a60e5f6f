import type Redis from 'ioredis';
import { type Config } from '../config/config';
import { type Listener } from '../kernel/listener';
import { debugTokenLinkListener } from './debug-token-link-listener';
import { defaultCollectors } from './collectors/default-collectors';
import { createProfilerListener } from './profiler-listener';
import { connectWriterRedis } from './connect-writer-redis';
import { RedisProfileStorage } from './redis-profile-storage';
import { ProfileWriter, type WriterStats } from './profile-writer';
import { TokenAllocator } from './token-allocator';

/** The profiler's counters: what was stored, dropped, or never profiled. */
export interface ProfilerStats {
  readonly writer: Readonly<WriterStats>;
  /** Requests served without a token because their profile could not have been stored. */
  readonly notProfiled: number;
}

/** The assembled profiler: its listeners, where it stores, and its counters. */
export interface Profiler {
  readonly listeners: readonly Listener[];
  readonly storage: RedisProfileStorage;
  readonly writer: ProfileWriter;
  stats(): ProfilerStats;
  /** Writes what is queued (bounded), then closes the writer's Redis connection. */
  close(): Promise<void>;
}

/**
 * Builds the profiler on its own Redis connection. Writes never queue while Redis is away
 * (no offline queue) and time out quickly, so a slow or dead Redis never holds a request.
 */
export async function createProfiler(
  config: Config,
  reader: Redis,
  secretCookies: ReadonlySet<string>,
  log: (line: string) => void,
): Promise<Profiler> {
  // Profiles are only collected once the writer can store them: its connection is ready first.
  const writerRedis = await connectWriterRedis(config.redisUrl);
  const storage = new RedisProfileStorage({
    redis: writerRedis,
    prefix: config.redisPrefix,
    lifetime: config.profilerLifetime,
    maxProfiles: config.profilerMaxProfiles,
  });
  const allocator = new TokenAllocator({ redis: reader, prefix: config.redisPrefix });
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
    onDrop: (count, reason) => throttledLog(`Profiler: ${count} profile(s) dropped (${writer.stats.dropped} in all): ${reason}`),
  });
  const listener = createProfilerListener({
    allocator,
    writer,
    collectors: defaultCollectors({ secretCookies }),
    onNotProfiled: (reason) => {
      notProfiled += 1;
      throttledLog(`Profiler: request served without a profile (${notProfiled} in all): ${reason}`);
    },
  });
  return {
    listeners: [listener, debugTokenLinkListener],
    storage: new RedisProfileStorage({ redis: reader, prefix: config.redisPrefix, lifetime: config.profilerLifetime, maxProfiles: config.profilerMaxProfiles }),
    writer,
    stats: () => ({ writer: { ...writer.stats }, notProfiled }),
    close: async () => {
      await writer.stop();
      writerRedis.disconnect();
    },
  };
}
