import test from 'ava';
import type Redis from 'ioredis';
import { LoupeResponse } from '../../../src/http/response';
import { collectProfile } from '../../../src/profiler/collect/collect-profile';
import { defaultCollectors } from '../../../src/profiler/collect/collectors/default-collectors';
import { type Profile } from '../../../src/profiler/profile';
import { parseProfile } from '../../../src/profiler/profile-schema';
import { type ProfileStorage } from '../../../src/profiler/storage/profile-storage';
import { ProfileWriter, type ProfileWriterOptions } from '../../../src/profiler/write/profile-writer';
import { RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';
import { RedisProfileStorage } from '../../../src/profiler/storage/redis-profile-storage';
import { exchangeFor } from '../../helpers/request-data';
import { sampleProfile } from '../../helpers/sample-profile';
import { useTestRedis } from '../../helpers/test-redis';

const BASE = Date.now();
const QUEUE_FULL = 'The profile queue was full.';
const REDIS_UNAVAILABLE = 'Redis was unavailable when the profile was to be stored.';

const redisForTests = useTestRedis(test, 'loupe-test-profile-writer');

/** `real`, but storing batches with `write`: a Redis whose writes fail while it stays connected. */
function writingWith(real: ProfileStorage, write: ProfileStorage['write']): ProfileStorage {
  return {
    write,
    batchOutcome: (batch, tokens) => real.batchOutcome(batch, tokens),
    markDropped: (tokensToMark, reason) => real.markDropped(tokensToMark, reason),
    read: (token) => real.read(token),
    find: (criteria) => real.find(criteria),
    findRows: (criteria) => real.findRows(criteria),
    search: (criteria) => real.search(criteria),
    latest: () => real.latest(),
    purge: () => real.purge(),
    count: () => real.count(),
  };
}

interface Setup {
  readonly writer: ProfileWriter;
  readonly redis: Redis;
  /** The same storage read through the admin client, which stays connected. */
  readonly reader: RedisProfileStorage;
  readonly drops: [number, string][];
}

async function setUp(options: Partial<Omit<ProfileWriterOptions, 'connection' | 'onDrop'>> = {}): Promise<Setup> {
  const prefix = redisForTests.prefix();
  const redis = await redisForTests.writerClient();
  const storage = new RedisProfileStorage({ redis, prefix, lifetime: 600, maxProfiles: 10_000 });
  const drops: [number, string][] = [];
  const writer = new ProfileWriter({ storage, connection: redis, ...options, onDrop: (count, reason) => drops.push([count, reason]) });
  const reader = new RedisProfileStorage({ redis: redisForTests.admin(), prefix, lifetime: 600, maxProfiles: 10_000 });
  return { writer, redis, reader, drops };
}

/** A finished main-request profile, as collectProfile makes them. */
function profile(token: string, index = 0): Profile {
  return sampleProfile({
    token,
    url: `http://127.0.0.1:8000/hello/${index}`,
    time: BASE + index,
    duration: 1.5,
    collectors: {
      machine: {
        states: [
          { name: 'kernel.request', start: 0, duration: 0.3 },
        ],
      },
      router: { route: 'hello', controller: 'hello.hello', params: { _route: 'hello' }, failure: null },
    },
    profilerCost: { collect: 0.01 },
  });
}

const tokens = (count: number, offset = 0): string[] => Array.from({ length: count }, (_, i) => (0xa00000 + offset + i).toString(16));

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}

test('every enqueued profile is stored, in batches, once the writer is idle', async (t) => {
  const { writer, reader } = await setUp({ batchSize: 256 });
  t.true(writer.isAvailable);
  t.is(writer.stats.state, 'idle');
  const all = tokens(600);
  for (const [i, token] of all.entries()) writer.enqueue(profile(token, i));
  t.is(writer.stats.state, 'writing');
  await writer.whenIdle();
  t.is(writer.stats.state, 'idle');
  t.is(await reader.count(), 600);
  t.like(writer.stats, { queued: 0, stored: 600, dropped: 0, replaced: 0, lastError: null });
  // The first profile leaves at once, alone; the 599 queued meanwhile go in batches of at most 256.
  t.is(writer.stats.batches, 4);
  const stored = await reader.read(all[599] ?? '');
  t.deepEqual(stored.kind === 'found' ? JSON.parse(stored.json) : stored, profile(all[599] ?? '', 599));
  const [newest] = await reader.find({ limit: 1 });
  const { duration, aborted } = profile(all[599] ?? '', 599);
  t.deepEqual(newest, { token: all[599], parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://127.0.0.1:8000/hello/599', time: BASE + 599, statusCode: 200, duration, aborted, route: 'hello' });
});

test('a profile collected from an exchange is stored as the JSON of it', async (t) => {
  const { writer, reader } = await setUp();
  const exchange = exchangeFor({ path: '/hello/anna', query: 'page=2', headers: { authorization: 'Basic eDp5' } });
  exchange.response = new LoupeResponse('hi');
  exchange.sent = true;
  const collected = collectProfile(exchange, { token: 'c0ffee', parent: null, children: [], collectors: defaultCollectors({ secretCookies: new Set() }), redaction: new RedactionPolicy() });
  writer.enqueue(collected);
  await writer.whenIdle();
  const stored = await reader.read('c0ffee');
  if (stored.kind !== 'found') return t.fail(`the profile is ${stored.kind}`);
  t.deepEqual(JSON.parse(stored.json), JSON.parse(JSON.stringify(collected)));
  t.false(stored.json.includes('eDp5'), 'what is stored is the redacted profile');
  t.like(parseProfile(stored.json), { ok: true }, 'what the writer stores, the one parser reads');
});

test('a profile enqueued again under its token replaces the stored one and is counted', async (t) => {
  const { writer, reader } = await setUp();
  writer.enqueue(profile('b00001'));
  await writer.whenIdle();
  writer.enqueue({ ...profile('b00001'), statusCode: 404 });
  await writer.whenIdle();
  t.like(writer.stats, { stored: 2, replaced: 1 });
  t.is(await reader.count(), 1);
  const stored = await reader.read('b00001');
  t.is(stored.kind === 'found' ? (JSON.parse(stored.json) as Profile).statusCode : 0, 404);
});

test('a full queue drops new profiles, counts them and says why; after stop() nothing more is written', async (t) => {
  const { writer, reader, drops } = await setUp({ maxQueue: 5, batchSize: 2 });
  const all = tokens(12, 0x100);
  for (const token of all) writer.enqueue(profile(token));
  // The first profile is already being written; five wait; the other six did not fit.
  t.is(writer.stats.queued, 5);
  t.false(writer.isAvailable, 'a full queue is reported as unavailable: no token for a profile that would be dropped');
  t.is(writer.stats.dropped, 6);
  t.deepEqual(drops, Array.from({ length: 6 }, () => [1, QUEUE_FULL]));
  for (const token of all.slice(6)) t.is(writer.droppedReason(token), QUEUE_FULL);
  t.is(writer.droppedReason(all[0] ?? ''), undefined);
  await writer.whenIdle();
  t.like(writer.stats, { queued: 0, stored: 6, dropped: 6 });
  t.true(writer.isAvailable);
  t.is(await reader.count(), 6);
  // Redis was up all along: the dropped tokens were marked with the next batch, with their reason.
  t.deepEqual(await reader.read(all[11] ?? ''), { kind: 'dropped', reason: QUEUE_FULL });

  await writer.stop();
  t.is(writer.stats.state, 'stopped');
  t.false(writer.isAvailable);
  writer.enqueue(profile('f00001'));
  t.is(writer.droppedReason('f00001'), 'The server was shutting down.');
  await writer.whenIdle();
  t.is(writer.stats.stored, 6);
  t.is(await reader.count(), 6);
  t.deepEqual(await reader.read('f00001'), { kind: 'missing' });
});

test('stop() writes what is queued before stopping', async (t) => {
  const { writer, reader } = await setUp({ batchSize: 10 });
  for (const token of tokens(50, 0x200)) writer.enqueue(profile(token));
  await writer.stop();
  t.is(writer.stats.state, 'stopped');
  t.is(writer.stats.stored, 50);
  t.is(await reader.count(), 50);
});

test('a disconnected writer client makes the writer unavailable: profiles are dropped and counted', async (t) => {
  const { writer, redis, reader, drops } = await setUp();
  writer.enqueue(profile('c00001'));
  await writer.whenIdle();
  redis.disconnect();
  await until(() => writer.stats.state === 'unavailable', 'the writer saw the connection close');
  t.false(writer.isAvailable);
  const lost = tokens(3, 0x300);
  for (const token of lost) writer.enqueue(profile(token));
  await writer.whenIdle();
  t.like(writer.stats, { queued: 0, stored: 1, dropped: 3 });
  t.deepEqual(drops, [
    [1, REDIS_UNAVAILABLE],
    [1, REDIS_UNAVAILABLE],
    [1, REDIS_UNAVAILABLE],
  ]);
  for (const token of lost) t.is(writer.droppedReason(token), REDIS_UNAVAILABLE);
  t.is(await reader.count(), 1);
  t.deepEqual(await reader.read(lost[0] ?? ''), { kind: 'missing' });
});

test('once the client is back, dropped tokens get tombstones and profiles are stored again', async (t) => {
  const { writer, redis, reader } = await setUp();
  redis.disconnect();
  await until(() => writer.stats.state === 'unavailable', 'the writer saw the connection close');
  writer.enqueue(profile('d00001'));
  t.is(writer.stats.dropped, 1);
  await redis.connect();
  await until(() => writer.stats.state === 'idle', 'the writer recovered');
  t.true(writer.isAvailable);
  t.deepEqual(await reader.read('d00001'), { kind: 'dropped', reason: REDIS_UNAVAILABLE });
  writer.enqueue(profile('d00002'));
  await writer.whenIdle();
  t.is((await reader.read('d00002')).kind, 'found');
  t.is(writer.stats.stored, 1);
});

test('a failed write holds its batch until Redis tells its outcome: never stored, it is dropped with the error as the reason', async (t) => {
  const prefix = redisForTests.prefix();
  const redis = await redisForTests.writerClient();
  const real = new RedisProfileStorage({ redis, prefix, lifetime: 600, maxProfiles: 100 });
  const failing = writingWith(real, () => Promise.reject(new Error('OOM command not allowed when used memory > maxmemory.')));
  const writer = new ProfileWriter({ storage: failing, connection: redis, batchSize: 3 });
  const [first, ...queued] = tokens(3, 0x400);
  for (const token of [first, ...queued]) writer.enqueue(profile(token ?? ''));
  await writer.whenIdle();
  t.is(writer.stats.state, 'unavailable');
  t.false(writer.isAvailable);
  t.is(writer.stats.lastError, 'Error: OOM command not allowed when used memory > maxmemory.');
  // The first profile was the batch in flight: held until Redis says whether it ran. The two
  // queued behind it are dropped on entering unavailable.
  t.is(writer.stats.unconfirmed, 1);
  t.is(writer.stats.dropped, 2);
  for (const token of queued) t.is(writer.droppedReason(token), REDIS_UNAVAILABLE);
  await until(() => writer.stats.unconfirmed === 0, 'the writer asked Redis about the held batch');
  t.is(writer.stats.dropped, 3);
  t.is(writer.stats.stored, 0);
  t.is(writer.droppedReason(first ?? ''), 'Storing the profile failed: Error: OOM command not allowed when used memory > maxmemory.');
  t.is(await real.count(), 0);
  await writer.stop();
});

test('a failed write while the connection stays up: the writer checks again and resumes on its own', async (t) => {
  const prefix = redisForTests.prefix();
  const redis = await redisForTests.writerClient();
  const real = new RedisProfileStorage({ redis, prefix, lifetime: 600, maxProfiles: 100 });
  let failures = 1;
  // Fails once (say, a command timeout) without the connection closing: no 'ready' event follows.
  const flaky = writingWith(real, (profiles) => (failures-- > 0 ? Promise.reject(new Error('Command timed out')) : real.write(profiles)));
  const writer = new ProfileWriter({ storage: flaky, connection: redis });
  writer.enqueue(profile('e10001'));
  await until(() => writer.stats.state === 'unavailable', 'the write failed');
  await until(() => writer.stats.state === 'idle', 'the writer resumed by itself');
  t.true(writer.isAvailable);
  t.deepEqual(await real.read('e10001'), { kind: 'dropped', reason: 'Storing the profile failed: Error: Command timed out' });
  writer.enqueue(profile('e10002'));
  await writer.whenIdle();
  t.is((await real.read('e10002')).kind, 'found');
  await writer.stop();
});

test('a batch over several groups of keys whose write failed in one group: that part is dropped with tombstones, the others are counted stored', async (t) => {
  const prefix = redisForTests.prefix();
  const redis = await redisForTests.writerClient();
  const storage = new RedisProfileStorage({ redis, prefix, groups: 4, lifetime: 600, maxProfiles: 100 });
  // A total of the wrong type makes group 1's script fail before it writes anything.
  await redisForTests.admin().hset(`${prefix}{g1}:profiler:bytes`, 'broken', '1');
  const writer = new ProfileWriter({ storage, connection: redis, batchSize: 8 });
  const batch = tokens(8, 0x500);
  for (const token of batch) writer.enqueue(profile(token));
  await until(() => writer.stats.state === 'unavailable', 'the write failed');
  await until(() => writer.stats.unconfirmed === 0, 'the writer asked Redis about the held batch');
  const failed = batch.filter((token) => parseInt(token, 16) % 4 === 1);
  t.is(failed.length, 2);
  t.like(writer.stats, { stored: 6, dropped: 2 });
  for (const token of batch) t.is((await storage.read(token)).kind, failed.includes(token) ? 'dropped' : 'found', token);
  t.regex(writer.droppedReason(failed[0] ?? '') ?? '', /^Storing the profile failed: .*WRONGTYPE/);
  await writer.stop();
});
