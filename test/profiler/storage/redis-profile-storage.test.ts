import { createHash } from 'node:crypto';
import test from 'ava';
import type Redis from 'ioredis';
import { type BatchId, type StoredProfile } from '../../../src/profiler/storage/profile-storage';
import { RedisProfileStorage } from '../../../src/profiler/storage/redis-profile-storage';
import { WRITE_SCRIPT } from '../../../src/profiler/storage/redis-scripts';
import { useTestRedis } from '../../helpers/test-redis';
import { profileStorageContract } from './profile-storage-contract';

const testRedis = useTestRedis(test, 'loupe-test-profile-storage');

profileStorageContract(test, 'RedisProfileStorage', async ({ maxProfiles, maxBytes, lifetime }) => {
  const redis = await testRedis.client('loupe-test');
  return new RedisProfileStorage({ redis, prefix: testRedis.prefix(), maxProfiles, maxBytes, lifetime });
});

/** `profile` as the writer queues it for `storage`: its JSON prepared (encoded to pooled bytes). */
function prepared(storage: RedisProfileStorage, profile: StoredProfile): StoredProfile {
  return { summary: profile.summary, json: storage.prepare(profile) };
}

/** The storage as the writer drives it: every profile prepared (encoded to pooled bytes) before it is written. */
function writingPrepared(storage: RedisProfileStorage): RedisProfileStorage {
  return new Proxy(storage, {
    get(target, property) {
      if (property === 'write') return (profiles: readonly StoredProfile[], batch?: BatchId) => target.write(profiles.map((profile) => prepared(target, profile)), batch);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

profileStorageContract(test, 'RedisProfileStorage, profiles prepared as the writer queues them', async ({ maxProfiles, maxBytes, lifetime }) => {
  const redis = await testRedis.client('loupe-test');
  return writingPrepared(new RedisProfileStorage({ redis, prefix: testRedis.prefix(), maxProfiles, maxBytes, lifetime }));
});

test('the key layout is the documented one', async (t) => {
  const redis = await testRedis.client('loupe-test');
  const prefix = testRedis.prefix();
  const storage = new RedisProfileStorage({ redis, prefix, maxProfiles: 10, lifetime: 100 });
  const summary = { token: 'abc123', parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://h/', time: Date.now(), statusCode: 200 };
  await storage.write([{ summary, json: '{"token":"abc123"}' }]);
  t.is(await redis.get(`${prefix}profile:abc123`), '{"token":"abc123"}');
  const ttl = await redis.ttl(`${prefix}profile:abc123`);
  t.true(ttl > 90 && ttl <= 100);
  t.deepEqual(await redis.zrevrange(`${prefix}profiler:index`, 0, -1), ['abc123']);
  t.deepEqual(JSON.parse((await redis.hget(`${prefix}profiler:meta`, 'abc123')) ?? 'null'), summary);
});

async function freshStorage(maxBytes: number): Promise<{ redis: Redis; prefix: string; storage: RedisProfileStorage }> {
  const redis = await testRedis.client('loupe-test');
  const prefix = testRedis.prefix();
  return { redis, prefix, storage: new RedisProfileStorage({ redis, prefix, maxProfiles: 1000, lifetime: 600, maxBytes }) };
}

const stored = (token: string, time: number, size: number): { summary: { token: string; parent: null; ip: string; method: string; url: string; time: number; statusCode: number }; json: string } => ({
  summary: { token, parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://h/', time, statusCode: 200 },
  json: JSON.stringify({ token, padding: 'x'.repeat(size) }),
});

test('past maxBytes the oldest profiles go, just as many as needed, and the running total stays exact', async (t) => {
  const { redis, prefix, storage } = await freshStorage(10_000);
  const now = Date.now();
  for (let i = 0; i < 10; i++) await storage.write([stored(`b0000${i}`, now + i, 2_000)]);
  const kept = await redis.zrange(`${prefix}profiler:index`, 0, -1);
  let sum = 0;
  for (const token of kept) sum += (await redis.strlen(`${prefix}profile:${token}`)) + (await redis.hstrlen(`${prefix}profiler:meta`, token));
  t.deepEqual(kept, ['b00006', 'b00007', 'b00008', 'b00009'], 'the four newest fit in 10,000 bytes');
  t.is(Number(await redis.get(`${prefix}profiler:bytes`)), sum);
  t.true(sum <= 10_000);
  t.is(await redis.hlen(`${prefix}profiler:sizes`), 4);
  // Replacing a profile counts its new size, not both.
  await storage.write([stored('b00009', now + 9, 10)]);
  t.is(Number(await redis.get(`${prefix}profiler:bytes`)), sum - 1_990);
  t.is(await storage.purge(), 4);
  t.is(await redis.exists(`${prefix}profiler:bytes`, `${prefix}profiler:sizes`), 0);
});

test('a corrupted search row is answered by findRows as unreadable, in its place; find, latest and every filter go on without it', async (t) => {
  const redis = await testRedis.client('loupe-test');
  const prefix = testRedis.prefix();
  const storage = new RedisProfileStorage({ redis, prefix, maxProfiles: 10, lifetime: 100 });
  const time = Date.now();
  const summary = { token: 'abc123', parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://h/a', time, statusCode: 200 };
  await storage.write([{ summary, json: '{}' }]);
  const planted: [string, string][] = [['bad001', '{"url": '], ['bad002', JSON.stringify({ ...summary, token: 'bad002', url: 42 })], ['bad003', '"a string"']];
  for (const [index, [token, row]] of planted.entries()) {
    await redis.zadd(`${prefix}profiler:index`, time + 1 + index, token);
    await redis.hset(`${prefix}profiler:meta`, token, row);
  }
  t.deepEqual(await storage.findRows({}), [
    { ok: false, token: 'bad003', error: 'it is not a JSON object' },
    { ok: false, token: 'bad002', error: 'the field "url" is missing or not a string' },
    { ok: false, token: 'bad001', error: 'it is not JSON' },
    { ok: true, summary },
  ]);
  t.deepEqual(await storage.find({}), [summary]);
  t.is(await storage.latest(), 'abc123');
  // A filter cannot judge a row that is not JSON: it is answered as unreadable whatever the filter.
  t.deepEqual((await storage.findRows({ url: 'h/a' })).map((row) => (row.ok ? row.summary.token : row.token)), ['bad003', 'bad001', 'abc123']);
  t.deepEqual(await storage.find({ ip: '127.0.0.1', method: 'GET', statusCode: 200, url: 'h/a' }), [summary]);
});

test('profiles given as text, as bytes, and a batch of more text than one command takes as text, are stored exactly, sizes in bytes', async (t) => {
  const { redis, prefix, storage } = await freshStorage(100_000_000);
  const now = Date.now();
  // 100 profiles of 3,000 characters, some of them two or three bytes each: past 192 K characters the batch goes as bytes.
  const texts = Array.from({ length: 100 }, (_, i) => stored((0xc00000 + i).toString(16), now + i, 3_000)).map((profile, i) => (i % 2 === 0 ? profile : { ...profile, json: profile.json.replace(/x{10}$/, 'é€😀') }));
  const bytes = stored('c10000', now + 200, 10).json;
  t.deepEqual(await storage.write([...texts, { summary: stored('c10000', now + 200, 10).summary, json: Buffer.from(bytes, 'utf8') }]), { stored: 101, replaced: 0 });
  t.deepEqual(await storage.write(texts.slice(0, 3)), { stored: 3, replaced: 3 });
  for (const { summary, json } of [...texts.slice(0, 3), ...texts.slice(-2)]) t.is(await redis.get(`${prefix}profile:${summary.token}`), json);
  t.is(await redis.get(`${prefix}profile:c10000`), bytes);
  const odd = texts[1];
  if (odd === undefined) return t.fail();
  t.is(Number(await redis.hget(`${prefix}profiler:sizes`, odd.summary.token)), Buffer.byteLength(odd.json) + Buffer.byteLength(JSON.stringify(odd.summary)));
});

test('prepared profiles (text, bytes, characters of two to four bytes, one larger than a pooled buffer) are stored exactly, sizes in bytes', async (t) => {
  const { redis, prefix, storage } = await freshStorage(100_000_000);
  const now = Date.now();
  const texts = Array.from({ length: 50 }, (_, i) => stored((0xd00000 + i).toString(16), now + i, 3_000)).map((profile, i) => (i % 2 === 0 ? profile : { ...profile, json: profile.json.replace(/x{10}$/, 'é€😀') }));
  const large = stored('d10000', now + 100, 1_500_000);
  const bytes = stored('d10001', now + 101, 10);
  const unicodeRow = { ...stored('d10002', now + 102, 10), summary: { ...stored('d10002', now + 102, 10).summary, url: 'http://h/été/€' } };
  const batch = [...texts, large, { summary: bytes.summary, json: Buffer.from(bytes.json, 'utf8') }, unicodeRow];
  t.deepEqual(await storage.write(batch.map((profile) => prepared(storage, profile))), { stored: 53, replaced: 0 });
  for (const { summary, json } of [...texts.slice(0, 2), large, bytes, unicodeRow]) t.is(await redis.get(`${prefix}profile:${summary.token}`), json);
  t.deepEqual(JSON.parse((await redis.hget(`${prefix}profiler:meta`, 'd10002')) ?? 'null'), unicodeRow.summary);
  const odd = texts[1];
  if (odd === undefined) return t.fail();
  t.is(Number(await redis.hget(`${prefix}profiler:sizes`, odd.summary.token)), Buffer.byteLength(odd.json) + Buffer.byteLength(JSON.stringify(odd.summary)));
});

test('prepared profiles whose pooled buffers are reused batch after batch, prepared ahead of their writes, all read back exactly', async (t) => {
  const redis = await testRedis.client('loupe-test');
  const prefix = testRedis.prefix();
  const storage = new RedisProfileStorage({ redis, prefix, maxProfiles: 10_000, lifetime: 600, maxBytes: 1_000_000_000 });
  const now = Date.now();
  let next = 0;
  // 100 profiles of about 2 KB a batch, 3,000 profiles in all: each pooled buffer serves many batches.
  const prepareBatch = (): StoredProfile[] => Array.from({ length: 100 }, () => stored((0xe00000 + next).toString(16), now + next++, 2_000 + (next % 7))).map((profile) => prepared(storage, profile));
  let ahead = prepareBatch();
  for (let round = 0; round < 29; round++) {
    const written = ahead;
    ahead = prepareBatch();
    t.deepEqual(await storage.write(written), { stored: 100, replaced: 0 });
  }
  t.deepEqual(await storage.write(ahead), { stored: 100, replaced: 0 });
  t.is(await redis.zcard(`${prefix}profiler:index`), 3_000);
  for (let i = 0; i < 3_000; i += 37) {
    const expected = stored((0xe00000 + i).toString(16), now + i, 2_000 + ((i + 1) % 7));
    t.is(await redis.get(`${prefix}profile:${expected.summary.token}`), expected.json);
  }
});

test('prepared profiles are stored when Redis no longer has the write script (restarted or flushed): it is sent once with EVAL', async (t) => {
  const { redis, prefix, storage } = await freshStorage(100_000_000);
  const profile = stored('f00001', Date.now(), 100);
  await redis.script('FLUSH');
  t.deepEqual(await storage.write([prepared(storage, profile)]), { stored: 1, replaced: 0 });
  t.is(await redis.get(`${prefix}profile:f00001`), profile.json);
  // EVAL loaded it again: the next write goes by its SHA.
  t.deepEqual(await redis.script('EXISTS', createHash('sha1').update(WRITE_SCRIPT).digest('hex')), [1]);
});
