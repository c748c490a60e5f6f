import test from 'ava';
import type Redis from 'ioredis';
import { createSessionId } from '../../src/session/session-id';
import { RedisSessionStorage } from '../../src/session/redis-session-storage';
import { cleanUpTestRedis, connectTestRedis, testKeyPrefix } from '../helpers/test-redis';
import { sessionStorageContract } from './session-storage-contract';

const prefix = testKeyPrefix();
let redis: Redis;
let storage: RedisSessionStorage;

test.before(async () => {
  // Fails with how to start a Redis when none answers.
  redis = await connectTestRedis();
  storage = new RedisSessionStorage(redis, { prefix, lifetime: 120 });
});

test.after.always(() => cleanUpTestRedis(redis, prefix));

sessionStorageContract(test, 'RedisSessionStorage', (lifetime) => new RedisSessionStorage(redis, { prefix, lifetime }));

test('a session is a JSON string under <prefix>session:<id> with the lifetime as TTL', async (t) => {
  const id = createSessionId();
  t.regex(id, /^[0-9a-f]{64}$/);
  await storage.write(id, { count: 3, user: 'anna' });
  t.is(storage.key(id), `${prefix}session:${id}`);
  t.is(await redis.get(`${prefix}session:${id}`), '{"count":3,"user":"anna"}');
  const ttl = await redis.ttl(storage.key(id));
  t.true(ttl > 100 && ttl <= 120, `TTL ${ttl}`);
  t.deepEqual(await storage.read(id), { count: 3, user: 'anna' });
});

test('an unknown or corrupt session reads as null', async (t) => {
  const id = createSessionId();
  t.is(await storage.read(id), null);
  await redis.set(storage.key(id), 'not json');
  t.is(await storage.read(id), null);
  await redis.set(storage.key(id), '[1,2]');
  t.is(await storage.read(id), null);
});

test('touch restarts the lifetime; destroy removes the key', async (t) => {
  const id = createSessionId();
  await storage.write(id, { a: 1 });
  await redis.expire(storage.key(id), 5);
  await storage.touch(id);
  t.true((await redis.ttl(storage.key(id))) > 100);
  await storage.destroy(id);
  t.is(await redis.exists(storage.key(id)), 0);
});

test('a Redis failure is wrapped with its cause, as a 503', async (t) => {
  const closed = await connectTestRedis('loupe-test-closed');
  await closed.quit();
  const broken = new RedisSessionStorage(closed, { prefix, lifetime: 120 });
  const error = await t.throwsAsync(broken.write(createSessionId(), { a: 1 }), { message: /Could not write session/ });
  t.like(error, { code: 'LOUPE_ERR_SESSION_STORAGE_UNAVAILABLE', statusCode: 503 });
  t.truthy(error?.cause);
});
