import { type ExecutionContext, type TestFn } from 'ava';
import { type ProfileSummary } from '../../src/profiler/profile';
import { type ProfileStorage, type StoredProfile } from '../../src/profiler/profile-storage';

/** Makes a fresh, empty storage keeping at most `maxProfiles` for `lifetime` seconds. */
export type StorageFactory = (options: { maxProfiles: number; lifetime: number }) => Promise<ProfileStorage>;

const BASE = Date.now();

function profile(token: string, overrides: Partial<ProfileSummary> = {}): StoredProfile {
  const summary: ProfileSummary = {
    token,
    parent: null,
    ip: '127.0.0.1',
    method: 'GET',
    url: `http://127.0.0.1:8000/${token}`,
    time: BASE,
    statusCode: 200,
    ...overrides,
  };
  return { summary, json: JSON.stringify({ ...summary, body: `profile ${token}` }) };
}

/** The behaviour every ProfileStorage implementation must have. */
export function profileStorageContract(test: TestFn, name: string, create: StorageFactory): void {
  const fresh = (t: ExecutionContext, maxProfiles = 1000, lifetime = 3600): Promise<ProfileStorage> => {
    void t;
    return create({ maxProfiles, lifetime });
  };

  test(`${name}: a written profile reads back byte for byte`, async (t) => {
    const storage = await fresh(t);
    const written = profile('a00001');
    t.deepEqual(await storage.write([written]), { stored: 1, replaced: 0 });
    t.deepEqual(await storage.read('a00001'), { kind: 'found', json: written.json });
    t.deepEqual(await storage.read('ffffff'), { kind: 'missing' });
  });

  test(`${name}: find lists newest first and filters by ip, method, status, url and time`, async (t) => {
    const storage = await fresh(t);
    await storage.write([
      profile('b00001', { time: BASE + 1, method: 'GET', statusCode: 404, url: 'http://h/config.yaml' }),
      profile('b00002', { time: BASE + 2, method: 'POST', statusCode: 405, ip: '10.0.0.7' }),
      profile('b00003', { time: BASE + 3, method: 'GET', statusCode: 200, parent: 'b00001' }),
    ]);
    t.deepEqual((await storage.find({})).map((row) => row.token), ['b00003', 'b00002', 'b00001']);
    t.deepEqual((await storage.find({ method: 'post' })).map((row) => row.token), ['b00002']);
    t.deepEqual((await storage.find({ ip: '10.0.0.7' })).map((row) => row.token), ['b00002']);
    t.deepEqual((await storage.find({ statusCode: 404 })).map((row) => row.token), ['b00001']);
    t.deepEqual((await storage.find({ url: 'config.y' })).map((row) => row.token), ['b00001']);
    t.deepEqual((await storage.find({ start: BASE + 2, end: BASE + 2 })).map((row) => row.token), ['b00002']);
    t.deepEqual((await storage.find({ limit: 2 })).map((row) => row.token), ['b00003', 'b00002']);
    t.is((await storage.find({}))[2]?.url, 'http://h/config.yaml');
    // The newest main request: b00003 is a sub-request.
    t.is(await storage.latest(), 'b00002');
  });

  test(`${name}: findRows answers the rows of find, in the same order, as readable rows`, async (t) => {
    const storage = await fresh(t);
    await storage.write([profile('e00001', { time: BASE + 1 }), profile('e00002', { time: BASE + 2, method: 'POST' })]);
    t.deepEqual(await storage.findRows({}), (await storage.find({})).map((summary) => ({ ok: true, summary })));
    t.deepEqual(await storage.findRows({ method: 'POST' }), [{ ok: true, summary: profile('e00002', { time: BASE + 2, method: 'POST' }).summary }]);
  });

  test(`${name}: retention keeps at most maxProfiles, removing the oldest`, async (t) => {
    const storage = await fresh(t, 3);
    await storage.write(['c1', 'c2', 'c3', 'c4', 'c5'].map((token, i) => profile(`${token}0000`, { time: BASE + i })));
    t.is(await storage.count(), 3);
    t.deepEqual((await storage.find({})).map((row) => row.token), ['c50000', 'c40000', 'c30000']);
    t.is((await storage.read('c10000')).kind, 'missing');
  });

  test(`${name}: retention drops profiles older than the lifetime`, async (t) => {
    const storage = await fresh(t, 1000, 60);
    await storage.write([profile('d00001', { time: Date.now() - 120_000 }), profile('d00002', { time: Date.now() })]);
    t.deepEqual((await storage.find({})).map((row) => row.token), ['d00002']);
  });

  test(`${name}: writing a token again replaces it and says so`, async (t) => {
    const storage = await fresh(t);
    await storage.write([profile('e00001')]);
    t.deepEqual(await storage.write([profile('e00001', { statusCode: 500 })]), { stored: 1, replaced: 1 });
    t.is((await storage.find({}))[0]?.statusCode, 500);
    t.is(await storage.count(), 1);
  });

  test(`${name}: dropped tokens read as dropped, with the reason`, async (t) => {
    const storage = await fresh(t);
    await storage.markDropped(['f00001'], 'Redis was down.');
    t.deepEqual(await storage.read('f00001'), { kind: 'dropped', reason: 'Redis was down.' });
  });

  test(`${name}: purge removes every profile`, async (t) => {
    const storage = await fresh(t);
    await storage.write([profile('a10001'), profile('a10002')]);
    t.is(await storage.purge(), 2);
    t.is(await storage.count(), 0);
    t.deepEqual(await storage.find({}), []);
    t.is((await storage.read('a10001')).kind, 'missing');
  });
}
