import { type ExecutionContext } from 'ava';
import { type ProfileSummary } from '../../../src/profiler/profile';
import { type ProfileStorage, type SearchResult, type StoredProfile } from '../../../src/profiler/storage/profile-storage';

/** Makes a fresh, empty storage keeping at most `maxProfiles` and `maxBytes` for `lifetime` seconds. */
export type StorageFactory = (options: { maxProfiles: number; maxBytes: number; lifetime: number }) => Promise<ProfileStorage>;

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

/** How a test is declared: ava's `test`, or `test.serial` where the tests must not overlap (a cluster killed later). */
export type DeclareTest = (title: string, implementation: (t: ExecutionContext) => Promise<void>) => void;

/** The behaviour every ProfileStorage implementation must have. */
export function profileStorageContract(test: DeclareTest, name: string, create: StorageFactory): void {
  const fresh = (t: ExecutionContext, maxProfiles = 1000, lifetime = 3600, maxBytes = 256 * 1024 * 1024): Promise<ProfileStorage> => {
    void t;
    return create({ maxProfiles, maxBytes, lifetime });
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

  test(`${name}: search counts every match, pages through them, and sorts by time or duration either way`, async (t) => {
    const storage = await fresh(t);
    await storage.write([
      profile('a20001', { time: BASE + 1, duration: 30, statusCode: 200, route: 'hello' }),
      profile('a20002', { time: BASE + 2, duration: 5, statusCode: 503 }),
      profile('a20003', { time: BASE + 3, duration: 80, statusCode: 500, route: 'boom' }),
      profile('a20004', { time: BASE + 4, duration: 12, statusCode: 500, parent: 'a20003' }),
      profile('a20005', { time: BASE + 5, duration: 1, statusCode: 404, url: 'http://h/favicon.ico' }),
      profile('a20006', { time: BASE + 6, duration: 7, statusCode: 0, aborted: true }),
      profile('a20007', { time: BASE + 7, duration: 9, statusCode: 200, aborted: true, route: 'hello' }),
    ]);
    const tokens = (result: SearchResult): string[] => result.rows.map((row) => (row.ok ? row.summary.token : `unreadable ${row.token}`));
    const all = await storage.search({ limit: 3 });
    t.deepEqual(tokens(all), ['a20007', 'a20006', 'a20005']);
    t.like(all, { total: 7, scanned: 7, complete: true });
    t.deepEqual(tokens(await storage.search({ limit: 3, offset: 3 })), ['a20004', 'a20003', 'a20002']);
    t.deepEqual(tokens(await storage.search({ limit: 3, offset: 6 })), ['a20001']);
    t.deepEqual(tokens(await storage.search({ order: 'asc', limit: 2 })), ['a20001', 'a20002']);
    t.deepEqual(tokens(await storage.search({ sort: 'duration' })), ['a20003', 'a20001', 'a20004', 'a20007', 'a20006', 'a20002', 'a20005']);
    t.deepEqual(tokens(await storage.search({ sort: 'duration', order: 'asc', limit: 2 })), ['a20005', 'a20002']);
    const serverErrors = await storage.search({ statusClass: 5 });
    t.deepEqual(tokens(serverErrors), ['a20004', 'a20003', 'a20002']);
    t.is(serverErrors.total, 3);
    t.deepEqual(tokens(await storage.search({ statusClass: 5, mainRequestsOnly: true })), ['a20003', 'a20002']);
    t.deepEqual(tokens(await storage.search({ hideFavicon: true, statusClass: 4 })), []);
    t.deepEqual(tokens(await storage.search({ statusClass: 4 })), ['a20005']);
    t.deepEqual(tokens(await storage.search({ aborted: true })), ['a20007', 'a20006']);
    t.deepEqual(tokens(await storage.search({ route: 'hello' })), ['a20007', 'a20001']);
  });

  test(`${name}: search finds requests with an N+1 query shape or at least N queries; a row without the counts has no queries`, async (t) => {
    const storage = await fresh(t);
    await storage.write([
      profile('c30001', { time: BASE + 1, duration: 1 }),
      profile('c30002', { time: BASE + 2, duration: 2, queries: 0, queryTime: 0, nPlusOne: 0 }),
      profile('c30003', { time: BASE + 3, duration: 3, queries: 6, queryTime: 1.5, nPlusOne: 1 }),
      profile('c30004', { time: BASE + 4, duration: 4, queries: 4, queryTime: 0.5, nPlusOne: 0 }),
      profile('c30005', { time: BASE + 5, duration: 5, queries: 30, queryTime: 9, nPlusOne: 2, parent: 'c30004' }),
    ]);
    const tokens = (result: SearchResult): string[] => result.rows.map((row) => (row.ok ? row.summary.token : `!${row.token}`));
    t.deepEqual(tokens(await storage.search({ nPlusOne: true })), ['c30005', 'c30003']);
    t.deepEqual(tokens(await storage.search({ nPlusOne: true, mainRequestsOnly: true })), ['c30003']);
    t.deepEqual(tokens(await storage.search({ minQueries: 4 })), ['c30005', 'c30004', 'c30003']);
    t.deepEqual(tokens(await storage.search({ minQueries: 5, sort: 'duration', order: 'asc' })), ['c30003', 'c30005']);
    t.deepEqual(tokens(await storage.search({ minQueries: 5, nPlusOne: true, limit: 1, offset: 1 })), ['c30003']);
    t.is((await storage.search({ minQueries: 31 })).total, 0);
    const [row] = (await storage.search({ minQueries: 6, nPlusOne: true, mainRequestsOnly: true })).rows;
    t.like(row, { ok: true, summary: { token: 'c30003', queries: 6, queryTime: 1.5, nPlusOne: 1 } });
  });

  test(`${name}: retention keeps at most maxProfiles, removing the oldest`, async (t) => {
    const storage = await fresh(t, 3);
    await storage.write(['c1', 'c2', 'c3', 'c4', 'c5'].map((token, i) => profile(`${token}0000`, { time: BASE + i })));
    t.is(await storage.count(), 3);
    t.deepEqual((await storage.find({})).map((row) => row.token), ['c50000', 'c40000', 'c30000']);
    t.is((await storage.read('c10000')).kind, 'missing');
  });

  test(`${name}: retention keeps at most maxBytes of profiles and search rows, removing the oldest, just as many as needed`, async (t) => {
    const storage = await fresh(t, 1000, 3600, 10_000);
    // Tokens of group 0 however many groups (0x10000 is a multiple of 16), as the count case.
    const written = Array.from({ length: 10 }, (_, i) => {
      const { summary } = profile(`b${i}0000`, { time: BASE + i });
      return { summary, json: JSON.stringify({ token: summary.token, padding: 'x'.repeat(2_000) }) };
    });
    for (const one of written) await storage.write([one]);
    const size = (one: { summary: StoredProfile['summary']; json: string }): number => Buffer.byteLength(JSON.stringify(one.summary)) + Buffer.byteLength(one.json);
    let kept = 0;
    let bytes = 0;
    for (const one of [...written].reverse()) {
      if (bytes + size(one) > 10_000) break;
      bytes += size(one);
      kept += 1;
    }
    t.is(kept, 4, 'four of them fit in 10,000 bytes');
    t.deepEqual(
      (await storage.find({})).map((row) => row.token),
      written.slice(-kept).map((one) => one.summary.token).reverse(),
    );
    t.is((await storage.read('b00000')).kind, 'missing');
    t.is((await storage.read('b90000')).kind, 'found');
  });

  test(`${name}: a batch outcome is recorded under its writer: asked after, the last batch says what it stored`, async (t) => {
    const storage = await fresh(t);
    const both = ['c00001', 'c00002'];
    const [first, second] = both.map((token) => profile(token));
    if (first === undefined || second === undefined) throw new Error('two profiles');
    t.deepEqual(await storage.batchOutcome({ writer: 'w1', number: 1 }, both), { stored: 0, replaced: 0, notStored: both }, 'nothing written yet');
    t.deepEqual(await storage.write([first, second], { writer: 'w1', number: 1 }), { stored: 2, replaced: 0 });
    t.deepEqual(await storage.batchOutcome({ writer: 'w1', number: 1 }, both), { stored: 2, replaced: 0, notStored: [] });
    t.deepEqual(await storage.batchOutcome({ writer: 'w1', number: 2 }, ['c00001']), { stored: 0, replaced: 0, notStored: ['c00001'] }, 'a batch that never ran');
    t.deepEqual(await storage.batchOutcome({ writer: 'w2', number: 1 }, both), { stored: 0, replaced: 0, notStored: both }, 'another writer');
    await storage.write([first], { writer: 'w1', number: 2 });
    t.deepEqual(await storage.batchOutcome({ writer: 'w1', number: 2 }, ['c00001']), { stored: 1, replaced: 1, notStored: [] });
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
