import { type TestFn } from 'ava';
import { randomBytes } from 'node:crypto';
import { Cluster, type Redis } from 'ioredis';
import { connectWriterRedis } from '../../src/profiler/write/connect-writer-redis';
import { connectRedis } from '../../src/redis/connect-redis';
import { type RedisClient } from '../../src/redis/redis-client';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * The tests' own clients (set-up, looking at what was stored, clean-up) wait for Redis far longer
 * than the application does: on a loaded machine they must not fail where the application is
 * meant to give up quickly.
 */
export const TEST_CLIENT_TIMEOUTS = Object.freeze({ commandTimeoutMs: 30_000, connectTimeoutMs: 10_000 });

/** A key prefix of its own, so that test files never see each other's keys. */
export function testKeyPrefix(): string {
  return `loupe-test:${randomBytes(4).toString('hex')}:`;
}

/**
 * `client` as one Redis: the tests that share REDIS_URL look at keys with commands a cluster
 * would spread over its nodes (KEYS, SCAN, multi-key DEL). The cluster tests start their own.
 */
export function asSingleRedis(client: RedisClient): Redis {
  if (!(client instanceof Cluster)) return client;
  client.disconnect();
  throw new Error('REDIS_URL names a Redis Cluster: the tests need one Redis there (test/cluster/ starts a cluster of its own).');
}

/**
 * A client of the Redis at REDIS_URL (default: the local one on port 6379). Fails with how to
 * start Redis when none answers. The caller quits it.
 */
export async function connectTestRedis(name = 'loupe-test'): Promise<Redis> {
  return asSingleRedis(await connectRedis(REDIS_URL, name, TEST_CLIENT_TIMEOUTS));
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

/** The Redis side of one test file: an admin client, key prefixes and clients, all cleaned up. */
export interface TestRedis {
  /** The admin client, connected in `before`. */
  admin(): Redis;
  /** A fresh key prefix, deleted after the file's tests. */
  prefix(): string;
  /** A client of its own (e.g. the application's), disconnected after the tests. */
  client(name: string): Promise<Redis>;
  /** The profile writer's own client, made as the server makes it. */
  writerClient(): Promise<Redis>;
}

/** Registers the hooks that connect Redis before a test file and clean up after it. */
export function useTestRedis(test: TestFn, name: string): TestRedis {
  let admin: Redis | undefined;
  const prefixes: string[] = [];
  const clients: Redis[] = [];
  test.before(async () => {
    admin = await connectTestRedis(name);
  });
  test.after.always(async () => {
    for (const client of clients) client.disconnect();
    for (const prefix of prefixes) {
      const keys = (await admin?.keys(`${prefix}*`)) ?? [];
      if (keys.length > 0) await admin?.del(...keys);
    }
    await admin?.quit();
  });
  const track = (client: Redis): Redis => {
    clients.push(client);
    return client;
  };
  return {
    admin: () => {
      if (admin === undefined) throw new Error('the before hook could not connect to Redis');
      return admin;
    },
    prefix: () => {
      const prefix = testKeyPrefix();
      prefixes.push(prefix);
      return prefix;
    },
    client: async (clientName) => track(await connectTestRedis(clientName)),
    writerClient: async () => track(asSingleRedis(await connectWriterRedis(REDIS_URL, `${name}-writer`))),
  };
}
