import { LoupeError } from '../../errors/loupe-error';
import { redisHelp } from '../../redis/connect-redis';
import { REDIS_TIMEOUT_DEFAULTS, type RedisTimeouts } from '../../redis/redis-config';
import { createRedisClient, describeRedisUrl, type RedisClient } from '../../redis/redis-client';

/**
 * The writer is off the request path: a batch may wait for a busy Redis this many times longer
 * than a request waits for one of its commands, so load alone does not drop profiles. Stopping
 * the server does not wait for it (the writer's stop has its own bound).
 */
const WRITER_TIMEOUT_FACTOR = 5;

/**
 * The profile writer's own connection, connecting: no offline queue and no retries, so a write to
 * a dead or slow Redis fails at once (or after `WRITER_TIMEOUT_FACTOR × commandTimeoutMs`) instead
 * of piling up in memory; it reconnects by itself, for ever. Its commands, which carry whole
 * profiles, are not published on ioredis' tracing channel (see RedisClientOptions.traced). On a
 * cluster, a write to a master that just died is retried by ioredis until its replica takes over
 * or the timeout ends it. The caller disconnects it.
 */
export function openWriterRedis(url: string, name = 'loupe-profile-writer', timeouts: RedisTimeouts = REDIS_TIMEOUT_DEFAULTS): RedisClient {
  const redis = createRedisClient(url, {
    name,
    connectTimeoutMs: timeouts.connectTimeoutMs,
    commandTimeoutMs: timeouts.commandTimeoutMs * WRITER_TIMEOUT_FACTOR,
    offlineQueue: false,
    maxRetriesPerRequest: 0,
    maxReconnectDelayMs: 1_000,
    lazyConnect: false,
    traced: false,
  });
  // Every failed reconnect emits 'error'; the writer learns of outages from 'close' and 'ready'.
  redis.on('error', () => undefined);
  return redis;
}

/** Resolves once `redis` is ready; not within `connectTimeoutMs`: an error saying where Redis was looked for. */
export async function whenWriterReady(redis: RedisClient, url: string, timeouts: RedisTimeouts = REDIS_TIMEOUT_DEFAULTS): Promise<void> {
  if (redis.status === 'ready') return;
  let timer: NodeJS.Timeout | undefined;
  let onReady = (): void => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeouts.connectTimeoutMs} ms (REDIS_CONNECT_TIMEOUT_MS)`)), timeouts.connectTimeoutMs);
      onReady = resolve;
      redis.once('ready', onReady);
    });
  } catch (error) {
    redis.off('ready', onReady);
    const reason = error instanceof Error ? error.message : String(error);
    throw new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', `The profile writer cannot reach ${describeRedisUrl(url)}. ${redisHelp(url)} (${reason})`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** The profile writer's own connection, ready; not ready within `connectTimeoutMs`: an error, the connection dropped. */
export async function connectWriterRedis(url: string, name = 'loupe-profile-writer', timeouts: RedisTimeouts = REDIS_TIMEOUT_DEFAULTS): Promise<RedisClient> {
  const redis = openWriterRedis(url, name, timeouts);
  try {
    await whenWriterReady(redis, url, timeouts);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
}
