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
 * The profile writer's own connection, ready: no offline queue and no retries, so a write to a
 * dead or slow Redis fails at once (or after `WRITER_TIMEOUT_FACTOR × commandTimeoutMs`) instead
 * of piling up in memory; it reconnects by itself. Its commands, which carry whole profiles, are
 * not published on ioredis' tracing channel (see RedisClientOptions.traced). On a cluster, a
 * write to a master that just died is retried by ioredis until its replica takes over or the
 * timeout ends it.
 * Not ready within `connectTimeoutMs`: an error. The caller disconnects it.
 */
export async function connectWriterRedis(url: string, name = 'loupe-profile-writer', timeouts: RedisTimeouts = REDIS_TIMEOUT_DEFAULTS): Promise<RedisClient> {
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
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${timeouts.connectTimeoutMs} ms (REDIS_CONNECT_TIMEOUT_MS)`)), timeouts.connectTimeoutMs);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } catch (error) {
    redis.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', `The profile writer cannot reach ${describeRedisUrl(url)}. ${redisHelp(url)} (${reason})`, { cause: error });
  }
  return redis;
}
