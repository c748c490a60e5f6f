import test from 'ava';
import { type LoupeResponse } from '../../../../src/http/response';
import { DEFAULT_PANELS } from '../../../../src/profiler/ui/panel/panel-registry';
import { createProfilerRoutes, type ProfilerRoutesDeps } from '../../../../src/profiler/ui/panel/profiler-routes';
import { type ProfileSummary } from '../../../../src/profiler/profile';
import { type ProfileCriteria, type ProfileStorage, type ReadResult } from '../../../../src/profiler/storage/profile-storage';
import { type ProfilerStats } from '../../../../src/profiler/profiler';
import { exchangeFor } from '../../../helpers/request-data';
import { sampleProfile } from '../../../helpers/sample-profile';

// Unit tests of the controllers over an in-memory storage: the cases a live server cannot be
// made to show on demand (a writer that dropped a profile, an unreadable stored profile).

const STATS: ProfilerStats = { writer: { queued: 0, stored: 3, dropped: 7, replaced: 0, batches: 1, unconfirmed: 0, lastError: null, state: 'idle' }, notProfiled: 2, sampling: { rate: 1, slowMs: 500, sampledOut: 0, keptAsError: 0, keptAsSlow: 0 } };

function storage(entries: Record<string, ReadResult>, latest: string | null = null): ProfileStorage {
  return {
    write: () => Promise.resolve({ stored: 0, replaced: 0 }),
    batchOutcome: (_batch, tokens) => Promise.resolve({ stored: 0, replaced: 0, notStored: tokens }),
    markDropped: () => Promise.resolve(),
    read: (token) => Promise.resolve(entries[token] ?? { kind: 'missing' }),
    find: (_criteria: ProfileCriteria) => Promise.resolve([] as ProfileSummary[]),
    findRows: (_criteria: ProfileCriteria) => Promise.resolve([]),
    search: (_criteria: ProfileCriteria) => Promise.resolve({ rows: [], total: 0, scanned: 0, complete: true }),
    latest: () => Promise.resolve(latest),
    purge: () => Promise.resolve(0),
    count: () => Promise.resolve(Object.keys(entries).length),
  };
}

async function call(deps: ProfilerRoutesDeps, routeName: string, params: Record<string, string>, query = '', accept = 'text/html'): Promise<LoupeResponse> {
  const route = createProfilerRoutes(deps).find((candidate) => candidate.name === routeName);
  if (route === undefined) throw new Error(`no route ${routeName}`);
  const exchange = exchangeFor({ path: '/_profiler/x', query, headers: { host: '127.0.0.1', accept } });
  return (await route.controller.handle({ ...exchange.resolveArguments(), params })) as LoupeResponse;
}

const deps = (entries: Record<string, ReadResult>, droppedByWriter: Record<string, string> = {}, latest: string | null = null): ProfilerRoutesDeps => ({
  storage: storage(entries, latest),
  stats: () => STATS,
  droppedReason: (token) => droppedByWriter[token],
  panels: DEFAULT_PANELS,
});

test('the routes carry Symfony\'s names, static paths first, the token requirement on _profiler and _wdt, the toolbar\'s files before it, EXPLAIN as a POST', (t) => {
  const routes = createProfilerRoutes(deps({}));
  t.deepEqual(routes.map((route) => [route.name, route.path]), [
    ['_profiler_home', '/_profiler/'],
    ['_profiler_search', '/_profiler/search'],
    ['_profiler_status', '/_profiler/status'],
    ['_profiler_live', '/_profiler/live'],
    ['_profiler_search_results', '/_profiler/{token}/search/results'],
    ['_profiler_compare', '/_profiler/{token}/compare/{other}'],
    ['_profiler_explain', '/_profiler/{token}/explain/{query}'],
    ['_profiler_explain_analyze', '/_profiler/{token}/explain/{query}/analyze'],
    ['_profiler', '/_profiler/{token}'],
    ['_wdt_assets', '/_wdt/assets/{file}'],
    ['_wdt', '/_wdt/{token}'],
  ]);
  t.deepEqual(routes[4]?.requirements, { token: '[0-9a-f]{6}|empty' });
  t.deepEqual(routes[5]?.requirements, { token: '[0-9a-f]{6}|latest', other: '[0-9a-f]{6}|latest' });
  for (const explain of [routes[6], routes[7]]) {
    t.deepEqual(explain?.methods, ['POST']);
    t.deepEqual(explain?.requirements, { token: '[0-9a-f]{6}|latest', query: '[1-9][0-9]{0,5}' });
  }
  t.deepEqual(routes[8]?.requirements, { token: '[0-9a-f]{6}|latest' });
  t.deepEqual(routes[9]?.requirements, { file: 'toolbar\\.[0-9a-f]{12}\\.(?:css|js)' });
  t.deepEqual(routes[10]?.requirements, { token: '[0-9a-f]{6}' });
});

test('a token the writer dropped is a 404 that says so and why', async (t) => {
  const res = await call(deps({}, { abc123: 'The profile queue was full.' }), '_profiler', { token: 'abc123' });
  t.is(res.status, 404);
  t.true(String(res.body).includes('The profile of token &quot;abc123&quot; was dropped and is not available: The profile queue was full.'));
  const json = await call(deps({}, { abc123: 'The profile queue was full.' }), '_profiler', { token: 'abc123' }, '', 'application/json');
  t.is(JSON.parse(String(json.body)).detail, 'The profile of token "abc123" was dropped and is not available: The profile queue was full.');
});

test('a tombstone in storage is a 404 with its reason', async (t) => {
  const res = await call(deps({ abc123: { kind: 'dropped', reason: 'Dropped: Redis was unavailable.' } }), '_profiler', { token: 'abc123' }, '', 'application/json');
  t.is(res.status, 404);
  t.is(JSON.parse(String(res.body)).detail, 'The profile of token "abc123" was dropped and is not available: Dropped: Redis was unavailable.');
});

test('an unknown token and latest with nothing stored are 404s with Symfony\'s messages', async (t) => {
  const unknown = await call(deps({}), '_profiler', { token: 'abc123' }, '', 'application/json');
  t.is(unknown.status, 404);
  t.is(JSON.parse(String(unknown.body)).detail, 'Token "abc123" not found.');
  const none = await call(deps({}), '_profiler', { token: 'latest' });
  t.is(none.status, 404);
  t.true(String(none.body).includes('No profiles found.'));
});

test('a stored profile that is not a profile gives a 500 naming the field, not a broken page', async (t) => {
  const res = await call(deps({ abc123: { kind: 'found', json: '{"version":1,"token":"abc123"}' } }), '_profiler', { token: 'abc123' }, '', 'application/json');
  t.is(res.status, 500);
  t.is(JSON.parse(String(res.body)).detail, 'The profile of token "abc123" cannot be read: the field "parent" is missing or not a string or null.');
  const old = await call(deps({ abc123: { kind: 'found', json: '{"token":"abc123"}' } }), '_profiler', { token: 'abc123' });
  t.is(old.status, 500);
  t.true(String(old.body).includes('cannot be read: it has no &quot;version&quot;: it was stored by an earlier Loupe'));
});

test('a profile without the entry of a panel\'s collector still renders: that panel says it has no data', async (t) => {
  const found = deps({ abc123: { kind: 'found', json: JSON.stringify(sampleProfile({ collectors: { cart: { items: 2 } } })) } });
  for (const panel of DEFAULT_PANELS) {
    const res = await call(found, '_profiler', { token: 'abc123' }, `panel=${panel.name}`);
    t.is(res.status, 200, panel.name);
    const body = String(res.body);
    t.true(body.includes(`No data: this profile holds nothing from the "${panel.collector}" collector`), panel.name);
    t.true(body.includes('<h2>200 OK</h2>'), `${panel.name}: the summary comes from the envelope`);
  }
  const page = String((await call(found, '_profiler', { token: 'abc123' })).body);
  t.true(page.includes('aria-current="page" data-panel="request"'), 'no exception entry: the request panel by default');
  const json = await call(found, '_profiler', { token: 'abc123' }, '', 'application/json');
  t.deepEqual(JSON.parse(String(json.body)).collectors, { cart: { items: 2 } }, 'an entry no panel reads stays in the JSON');
});

test('the status page shows the writer counters in HTML and JSON', async (t) => {
  const json = await call(deps({}), '_profiler_status', {}, '', 'application/json');
  t.deepEqual(JSON.parse(String(json.body)), {
    stored: 3,
    dropped: 7,
    notProfiled: 2,
    replaced: 0,
    queued: 0,
    batches: 1,
    writerState: 'idle',
    lastError: null,
    sampleRate: 1,
    slowMs: 500,
    sampledOut: 0,
    keptAsError: 0,
    keptAsSlow: 0,
    indexed: 0,
    storage: { reachable: true, error: null },
  });
  const page = String((await call(deps({}), '_profiler_status', {})).body);
  t.regex(page, /<dt>Dropped<\/dt><dd data-counter="dropped">7<\/dd>/);
  t.regex(page, /data-counter="not-profiled">2</);
});

test('a process that only reads profiles (no counters) says so on the status page and in the sidebar; its status JSON has every counter null', async (t) => {
  const reader: ProfilerRoutesDeps = { ...deps({}), stats: () => null };
  const json = JSON.parse(String((await call(reader, '_profiler_status', {}, '', 'application/json')).body)) as Record<string, unknown>;
  t.like(json, { stored: null, dropped: null, notProfiled: null, writerState: null, sampleRate: null, indexed: 0, storage: { reachable: true, error: null } });
  const page = String((await call(reader, '_profiler_status', {})).body);
  t.regex(page, /<p data-counter="reader">This process only reads the profiles \(loupe profiler:serve\)/);
  t.false(page.includes('data-counter="stored"'), 'no counter of a writer it does not have');
  const search = String((await call(reader, '_profiler_search_results', { token: 'empty' })).body);
  t.regex(search, /data-counter="reader">Pages served on their own: this process stores no profiles\./);
  t.false(search.includes('data-counter="dropped"'));
});

/** A storage whose every call fails as ioredis fails when Redis does not answer in time. */
function timingOut(): ProfileStorage {
  const fail = (): Promise<never> => Promise.reject(new Error('Command timed out'));
  return { write: fail, markDropped: fail, batchOutcome: fail, read: fail, find: fail, findRows: fail, search: fail, latest: fail, purge: fail, count: fail };
}

test('a storage that does not answer makes the status page say so, with the counters still there', async (t) => {
  const failing = { ...deps({}), storage: timingOut() };
  const json = await call(failing, '_profiler_status', {}, '', 'application/json');
  t.is(json.status, 200);
  t.like(JSON.parse(String(json.body)), {
    dropped: 7,
    indexed: null,
    storage: { reachable: false, error: 'The profile storage (Redis) is unavailable: Command timed out.' },
  });
  const page = await call(failing, '_profiler_status', {});
  t.is(page.status, 200);
  t.regex(String(page.body), /data-counter="storage">unreachable</);
  t.regex(String(page.body), /data-counter="dropped">7</);
});

test('a connection that is down makes the status page say so without asking the storage', async (t) => {
  let asked = 0;
  const counting = { ...storage({}), count: () => Promise.resolve(++asked) };
  const json = await call({ ...deps({}), storage: counting, isStorageConnected: () => false }, '_profiler_status', {}, '', 'application/json');
  t.like(JSON.parse(String(json.body)), { storage: { reachable: false, error: 'The profile storage (Redis) is unavailable: the connection to Redis is down.' } });
  t.is(asked, 0);
});

for (const [name, params, query] of [
  ['_profiler', { token: 'abc123' }, ''],
  ['_profiler', { token: 'latest' }, ''],
  ['_profiler_search_results', { token: 'empty' }, 'limit=10'],
] as const) {
  test(`${name} ${params.token} answers 503 with LOUPE_ERR_PROFILER_STORAGE_UNAVAILABLE when the storage does not answer`, async (t) => {
    const failing = { ...deps({}), storage: timingOut() };
    const json = await call(failing, name, params, query, 'application/json');
    t.is(json.status, 503);
    t.like(JSON.parse(String(json.body)), { status: 503, title: 'Profile storage unavailable', code: 'LOUPE_ERR_PROFILER_STORAGE_UNAVAILABLE' });
    t.regex(JSON.parse(String(json.body)).detail, /^The profile storage \(Redis\) is unavailable: Command timed out\. Profiles cannot be read/);
    const page = await call(failing, name, params, query);
    t.is(page.status, 503);
    t.regex(String(page.body), /Error 503 Service Unavailable/);
  });
}
