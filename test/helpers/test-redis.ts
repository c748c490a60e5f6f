import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { connectRedis } from '../../src/redis/connect-redis';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A key prefix of its own, so that test files never see each other's keys. */
export function testKeyPrefix(): string {
  return `loupe-test:${randomBytes(4).toString('hex')}:`;
}

/**
 * A client of the Redis at REDIS_URL (default: the local one on port 6379). Fails with how to
 * start Redis when none answers. The caller quits it.
 */
export function connectTestRedis(name = 'loupe-test'): Promise<Redis> {
  return connectRedis(REDIS_URL, name);
}

/**
 * Deletes every key under `prefix`, then quits the client. Does nothing without a client, so
 * that an `after.always` hook does not hide the error of a `before` hook that could not connect.
 */
export async function cleanUpTestRedis(redis: Redis | undefined, prefix: string): Promise<void> {
  if (redis === undefined) return;
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
}
