import test from 'ava';
import type Redis from 'ioredis';
import { type ProfileCriteria, type SearchResult, type StoredProfile } from '../../../src/profiler/storage/profile-storage';
import { RedisProfileStorage } from '../../../src/profiler/storage/redis-profile-storage';
import { useTestRedis } from '../../helpers/test-redis';
import { profileStorageContract } from './profile-storage-contract';

// Profile keys in several groups, as on a Redis Cluster, here on the one test Redis: what the
// groups change (keys, merged searches, per-group retention and outcomes) needs no cluster.

const GROUPS = 4;
const testRedis = useTestRedis(test, 'loupe-test-profile-groups');

async function fresh(options: { groups?: number; maxProfiles?: number; maxBytes?: number; lifetime?: number } = {}): Promise<{ redis: Redis; prefix: string; storage: RedisProfileStorage }> {
  const redis = await testRedis.client('loupe-test');
  const prefix = testRedis.prefix();
  const storage = new RedisProfileStorage({ redis, prefix, groups: options.groups ?? GROUPS, lifetime: options.lifetime ?? 600, maxProfiles: options.maxProfiles ?? 10_000, ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }) });
  return { redis, prefix, storage };
}

// Every group keeps its share of maxProfiles and maxBytes. The contract's retention cases write
// tokens that all fall in group 0 (c10000, c20000…), so that group is given the whole limits.
profileStorageContract(test, `RedisProfileStorage in ${GROUPS} groups`, async ({ maxProfiles, maxBytes, lifetime }) => (await fresh({ maxProfiles: maxProfiles * GROUPS, maxBytes: maxBytes * GROUPS, lifetime })).storage);

const group = (token: string): number => parseInt(token, 16) % GROUPS;

function stored(token: string, time: number, extra: Partial<StoredProfile['summary']> = {}, size = 10): StoredProfile {
  const summary = { token, parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://h/', time, statusCode: 200, ...extra };
  return { summary, json: JSON.stringify({ token, padding: 'x'.repeat(size) }) };
}

test('each group keeps its keys under its own hash tag: profile, index, search row, sizes, total and the writer record', async (t) => {
  const { redis, prefix, storage } = await fresh();
  const tokens = ['a00000', 'a00001', 'a00002', 'a00003', 'a00007'];
  await storage.write(tokens.map((token, i) => stored(token, Date.now() + i)), { writer: 'w1', number: 1 });
  for (const token of tokens) {
    const base = `${prefix}{g${group(token)}}:`;
    t.is(JSON.parse((await redis.get(`${base}profile:${token}`)) ?? '{}').token, token);
    t.not(await redis.zscore(`${base}profiler:index`, token), null);
    t.not(await redis.hget(`${base}profiler:meta`, token), null);
    t.not(await redis.hget(`${base}profiler:sizes`, token), null);
  }
  t.deepEqual(await redis.zrange(`${prefix}{g3}:profiler:index`, 0, -1), ['a00003', 'a00007']);
  // One record per group the batch touched, each with that group's part.
  t.is(await redis.get(`${prefix}{g3}:profiler:writer:w1`), '1 2 0');
  t.is(await redis.get(`${prefix}{g0}:profiler:writer:w1`), '1 1 0');
  t.deepEqual(await redis.keys(`${prefix}profiler:*`), [], 'no key outside the groups');
  await storage.markDropped(['b00002'], 'gone');
  t.is(await redis.get(`${prefix}{g2}:profile-dropped:b00002`), 'gone');
  t.deepEqual(await storage.read('b00002'), { kind: 'dropped', reason: 'gone' });
  t.is(await storage.count(), 5);
  t.deepEqual(await storage.read('not-a-token'), { kind: 'missing' });
});

test('retention holds per group: each keeps its share of maxProfiles and maxBytes, the oldest of the group going first', async (t) => {
  const { redis, prefix, storage } = await fresh({ maxProfiles: 8 });
  const now = Date.now();
  // Four profiles per group, in time order; each group keeps two.
  const tokens = Array.from({ length: 16 }, (_, i) => `d000${i.toString(16).padStart(2, '0')}`);
  for (const [i, token] of tokens.entries()) await storage.write([stored(token, now + i)]);
  t.is(await storage.count(), 8);
  for (let g = 0; g < GROUPS; g++) t.deepEqual(await redis.zrange(`${prefix}{g${g}}:profiler:index`, 0, -1), tokens.filter((token) => group(token) === g).slice(-2));
  const bytes = await fresh({ maxBytes: 4 * 6_000 });
  for (const [i, token] of tokens.entries()) await bytes.storage.write([stored(token, now + i, {}, 2_000)]);
  for (let g = 0; g < GROUPS; g++) {
    const held = Number(await bytes.redis.get(`${bytes.prefix}{g${g}}:profiler:bytes`));
    t.true(held <= 6_000, `group ${g} holds ${held} bytes`);
    t.is(await bytes.redis.zcard(`${bytes.prefix}{g${g}}:profiler:index`), 2);
  }
});

test('a group whose write fails leaves the others stored: the error is thrown once all ran, and the outcome names the tokens not stored', async (t) => {
  const { redis, prefix, storage } = await fresh();
  // A total of the wrong type makes group 1's script fail before it writes anything.
  await redis.hset(`${prefix}{g1}:profiler:bytes`, 'broken', '1');
  const batch = ['e00000', 'e00001', 'e00002', 'e00005', 'e00006'];
  await t.throwsAsync(storage.write(batch.map((token) => stored(token, Date.now())), { writer: 'w1', number: 7 }), { message: /WRONGTYPE/ });
  t.deepEqual(await storage.batchOutcome({ writer: 'w1', number: 7 }, batch), { stored: 3, replaced: 0, notStored: ['e00001', 'e00005'] });
  t.is((await storage.read('e00002')).kind, 'found');
  t.is((await storage.read('e00005')).kind, 'missing');
});

/** What a search answers, as tokens (unreadable rows marked), with its counts. */
function page(result: SearchResult): string {
  return `${result.rows.map((row) => (row.ok ? row.summary.token : `!${row.token}`)).join(',')} total ${result.total} scanned ${result.scanned} ${result.complete ? 'complete' : 'partial'}`;
}

test('a search over four groups answers what one group answers: the same rows, order, pages and counts', async (t) => {
  const one = await fresh({ groups: 1 });
  const four = await fresh();
  const now = Date.now();
  let seed = 7;
  const random = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const profiles = Array.from({ length: 300 }, (_, i) =>
    // Few distinct times and durations: ties across groups must be broken as one sorted set breaks them.
    stored(`${(0x100000 + i * 7919).toString(16)}`, now - random(40) * 1000, {
      duration: random(6) * 1.5,
      statusCode: [200, 404, 500][random(3)] ?? 200,
      method: random(4) === 0 ? 'POST' : 'GET',
      parent: random(5) === 0 ? 'abcdef' : null,
      ...(random(4) === 0 ? {} : { queries: random(12), nPlusOne: random(3) === 0 ? 1 : 0 }),
    }),
  );
  await one.storage.write(profiles);
  await four.storage.write(profiles);
  const criteria: ProfileCriteria[] = [
    {},
    { limit: 7 },
    { limit: 7, offset: 20 },
    { order: 'asc', limit: 11, offset: 3 },
    { sort: 'duration', limit: 25 },
    { sort: 'duration', order: 'asc', limit: 13, offset: 40 },
    { statusClass: 5, mainRequestsOnly: true, limit: 9 },
    { method: 'POST', start: now - 20_000, end: now - 5_000 },
    { nPlusOne: true, limit: 9, offset: 2 },
    { minQueries: 6, sort: 'duration', limit: 15 },
  ];
  for (const c of criteria) t.is(page(await four.storage.search(c)), page(await one.storage.search(c)), JSON.stringify(c));
  t.is(await four.storage.latest(), await one.storage.latest());
  t.is(await four.storage.purge(), 300);
  t.is(await four.storage.count(), 0);
});
