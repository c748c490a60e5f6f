import Redis from 'ioredis';
import { LoupeError } from '../errors/loupe-error';

/** How to get a Redis when none answers; shown by the server, `make run` and the tests. */
export const REDIS_HELP =
  'Start one with `docker compose up -d redis`, or `redis-server --port 6379 --save ""`, ' +
  'or point REDIS_URL at a Redis you have (e.g. REDIS_URL=redis://127.0.0.1:6379).';

/**
 * A connected ioredis client, or an error saying where Redis was looked for and how to get one.
 * The caller owns the client and quits it.
 */
export async function connectRedis(url: string, name: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectionName: name,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    // Give up quickly at start; once connected, reconnect forever with a capped backoff.
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  });
  // ioredis emits 'error' on every failed reconnect; without a listener Node would print each one.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', `Cannot reach Redis at ${url}. ${REDIS_HELP}`, { cause: error });
  }
  return redis;
}
