import { closeRedis, connectRedis } from '../../redis/connect-redis';
import { createRedisClient, describeRedisUrl, type RedisClient } from '../../redis/redis-client';
import { type RedisConfig } from '../../redis/redis-config';
import { type Profiler } from '../assemble-profiler';
import { type ProfilerParts } from '../check-profiler-parts';
import { createProfiler } from '../profiler';
import { type ProfilerConfig } from '../profiler-config';

/** A profiler on its store, as startProfiler holds it. */
export interface StoredProfiler {
  readonly profiler: Profiler;
  /** Whether the store answers now (the pages answer 503 while it does not). */
  isConnected(): boolean;
  close(): Promise<void>;
}

/** What the profiler says of an outage: once when Redis goes (its consequences are then counted, not logged), once when it is back. */
function outageLog(log: (line: string) => void, where: string) {
  let away = false;
  return {
    away: (error: unknown): void => {
      if (away) return;
      away = true;
      const reason = error instanceof Error ? error.message : String(error);
      log(`Profiler: cannot reach ${where} (${reason}). The application is served without profiles until it answers; the requests not profiled and the profiles dropped are counted (/_profiler/status).`);
    },
    back: (): void => {
      if (!away) return;
      away = false;
      log(`Profiler: ${where} answers again; requests are profiled.`);
    },
    log: (line: string): void => {
      if (!away) log(line);
    },
  };
}

/**
 * A reader that keeps trying, for a start without Redis: commands fail at once while it is away
 * (no offline queue: a page asked meanwhile answers 503 rather than waiting), and it reconnects by
 * itself, with the backoff connectRedis' clients have.
 */
function reconnectingReader(config: RedisConfig): RedisClient {
  const reader = createRedisClient(config.url, {
    name: 'loupe-profiler',
    connectTimeoutMs: config.connectTimeoutMs,
    commandTimeoutMs: config.commandTimeoutMs,
    offlineQueue: false,
    maxRetriesPerRequest: 1,
    maxReconnectDelayMs: 2_000,
    lazyConnect: false,
  });
  reader.on('error', () => undefined);
  return reader;
}

/**
 * The profiler on the Redis of `config`, for an application on another server: a Redis that
 * does not answer never stops it. The application is then served without profiles (each request
 * not profiled, each profile dropped, counted) and told so once; the profiler starts by itself
 * once Redis answers, and says so.
 */
export async function startRedisProfiler(config: { readonly redis: RedisConfig; readonly profiler: ProfilerConfig }, parts: ProfilerParts, log: (line: string) => void): Promise<StoredProfiler> {
  const outage = outageLog(log, describeRedisUrl(config.redis.url));
  let reader: RedisClient;
  try {
    reader = await connectRedis(config.redis.url, 'loupe-profiler', config.redis);
  } catch (error) {
    outage.away(error);
    reader = reconnectingReader(config.redis);
  }
  let closing = false;
  reader.on('ready', outage.back);
  reader.on('close', () => closing || outage.away(new Error('the connection was lost')));
  try {
    const profiler = await createProfiler(config, reader, parts, outage.log, { onUnreachable: outage.away });
    return {
      profiler,
      isConnected: () => reader.status === 'ready',
      close: async () => {
        closing = true;
        await profiler.close();
        await closeRedis(reader);
      },
    };
  } catch (error) {
    reader.disconnect();
    throw error;
  }
}
