import test from 'ava';
import type Redis from 'ioredis';
import { RedisProfileStorage } from '../../src/profiler/redis-profile-storage';
import { connectTestRedis, testKeyPrefix } from '../helpers/test-redis';
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
  const redis = await connectTestRedis();
  clients.push(redis);
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  return new RedisProfileStorage({ redis, prefix, maxProfiles, lifetime });
});

test('the key layout is the documented one', async (t) => {
  const redis = await connectTestRedis();
  clients.push(redis);
  const prefix = testKeyPrefix();
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
