import test from 'ava';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { connectRedis } from '../../src/redis/connect-redis';
import { RedisProfileStorage } from '../../src/profiler/redis-profile-storage';
import { profileStorageContract } from './profile-storage-contract';

const clients: Redis[] = [];
const prefixes: string[] = [];

test.after.always(async () => {
  const [redis] = clients;
  for (const prefix of prefixes) {
    const keys = await redis?.keys(`${prefix}*`);
    if (redis !== undefined && keys !== undefined && keys.length > 0) await redis.del(...keys);
  }
  for (const client of clients) client.disconnect();
});

profileStorageContract(test, 'RedisProfileStorage', async ({ maxProfiles, lifetime }) => {
  const redis = await connectRedis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', 'loupe-test');
  clients.push(redis);
  const prefix = `loupe-test:${randomBytes(4).toString('hex')}:`;
  prefixes.push(prefix);
  return new RedisProfileStorage({ redis, prefix, maxProfiles, lifetime });
});

test('the key layout is the documented one', async (t) => {
  const redis = await connectRedis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', 'loupe-test');
  clients.push(redis);
  const prefix = `loupe-test:${randomBytes(4).toString('hex')}:`;
  prefixes.push(prefix);
  const storage = new RedisProfileStorage({ redis, prefix, maxProfiles: 10, lifetime: 100 });
  const summary = { token: 'abc123', parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://h/', time: Date.now(), statusCode: 200 };
  await storage.write([{ summary, json: '{"token":"abc123"}' }]);
  t.is(await redis.get(`${prefix}profile:abc123`), '{"token":"abc123"}');
  const ttl = await redis.ttl(`${prefix}profile:abc123`);
  t.true(ttl > 90 && ttl <= 100);
  t.deepEqual(await redis.zrevrange(`${prefix}profiler:index`, 0, -1), ['abc123']);
  t.deepEqual(JSON.parse((await redis.hget(`${prefix}profiler:meta`, 'abc123')) ?? 'null'), summary);
});
