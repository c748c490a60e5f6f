import test from 'ava';
import { MemoryProfileStorage } from '../../../src/profiler/storage/memory-profile-storage';
import { profileStorageContract } from './profile-storage-contract';

profileStorageContract(test, 'MemoryProfileStorage', async ({ maxProfiles, maxBytes, lifetime }) => new MemoryProfileStorage({ maxProfiles, maxBytes, lifetime }));

const stored = (token: string, time: number, size: number): { summary: { token: string; parent: null; ip: string; method: string; url: string; time: number; statusCode: number }; json: Buffer } => ({
  summary: { token, parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://h/', time, statusCode: 200 },
  json: Buffer.from(JSON.stringify({ token, padding: 'x'.repeat(size) })),
});

test('the bytes held are those of the profiles and search rows kept: a replaced profile counts once, a purge frees them all', async (t) => {
  const storage = new MemoryProfileStorage({ maxProfiles: 1000, maxBytes: 1024 * 1024, lifetime: 600 });
  const now = Date.now();
  const first = stored('a00001', now, 2_000);
  const second = stored('a00002', now + 1, 500);
  await storage.write([first, second]);
  const size = (one: ReturnType<typeof stored>): number => Buffer.byteLength(JSON.stringify(one.summary)) + one.json.length;
  t.is(storage.bytes, size(first) + size(second));
  const smaller = stored('a00001', now, 10);
  t.deepEqual(await storage.write([smaller]), { stored: 1, replaced: 1 });
  t.is(storage.bytes, size(smaller) + size(second));
  t.deepEqual(await storage.read('a00001'), { kind: 'found', json: smaller.json.toString('utf8') }, 'bytes read back as the text they encode');
  t.is(await storage.purge(), 2);
  t.is(storage.bytes, 0);
});

test('has() names the tokens of stored profiles and tombstones, which a token source must not hand out', async (t) => {
  const storage = new MemoryProfileStorage({ maxProfiles: 1, lifetime: 600 });
  await storage.write([stored('b00001', Date.now(), 10)]);
  await storage.markDropped(['b00002'], 'The profile queue was full.');
  t.true(storage.has('b00001'));
  t.true(storage.has('b00002'));
  await storage.write([stored('b00003', Date.now() + 1, 10)]);
  t.false(storage.has('b00001'), 'removed past maxProfiles');
  t.false(storage.has('ffffff'));
});

test('a profile that came in late takes its place by start time, not by arrival', async (t) => {
  const storage = new MemoryProfileStorage({ maxProfiles: 2, lifetime: 600 });
  const now = Date.now();
  await storage.write([stored('c00002', now + 2, 10), stored('c00003', now + 3, 10)]);
  await storage.write([stored('c00001', now + 1, 10)]);
  t.deepEqual((await storage.find({})).map((row) => row.token), ['c00003', 'c00002'], 'the oldest by start time is the one removed');
});
