import Redis from 'ioredis';
import { LoupeError } from '../errors/loupe-error';
import { REDIS_HELP } from '../redis/connect-redis';

/**
 * The profile writer's own connection, ready: no offline queue and no retries, so a write to a
 * dead or slow Redis fails at once (or after 2 s) instead of piling up in memory; it reconnects
 * by itself. The caller disconnects it.
 */
export async function connectWriterRedis(url: string, name = 'loupe-profile-writer'): Promise<Redis> {
  const redis = new Redis(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 100, 1_000),
  });
  // Every failed reconnect emits 'error'; the writer learns of outages from 'close' and 'ready'.
  redis.on('error', () => undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer within 5 s')), 5_000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  } catch (error) {
    redis.disconnect();
    throw new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', `The profile writer cannot reach Redis at ${url}. ${REDIS_HELP}`, { cause: error });
  }
  return redis;
}
