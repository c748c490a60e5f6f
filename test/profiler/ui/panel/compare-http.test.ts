import test from 'ava';
import { httpRequest, type HttpResult } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { profileRequests } from '../cli/profile-requests';

let server: TestServer;
let fast = '';
let slow = '';
let missing = '';

const get = (path: string, headers: Record<string, string> = {}): Promise<HttpResult> => httpRequest(server.port, { path, headers });

test.before(async () => {
  server = await startTestServer();
  // A first request runs cold code: the ones compared come after it.
  [, fast = '', slow = '', missing = ''] = await profileRequests(server, [{ path: '/hello/warm-up' }, { path: '/slow?ms=0' }, { path: '/slow?ms=250' }, { path: '/config.yaml' }]);
});

test.after.always(async () => {
  await server?.close();
});

interface Diff {
  readonly name: string;
  readonly a: number | null;
  readonly b: number | null;
  readonly diff: number | null;
  readonly percent: number | null;
}

test('the comparison as JSON: both sides, the total and each state with the difference in ms and %, the listeners that changed most', async (t) => {
  const res = await get(`/_profiler/${fast}/compare/${slow}`, { Accept: 'application/json' });
  t.is(res.status, 200);
  t.is(res.headers['x-debug-token'], undefined);
  const comparison = JSON.parse(res.body) as { a: Record<string, unknown>; b: Record<string, unknown>; total: Diff; states: Diff[]; listeners: Diff[] };
  t.like(comparison.a, { token: fast, statusCode: 200, route: 'slow', method: 'GET' });
  t.like(comparison.b, { token: slow, statusCode: 200, route: 'slow' });
  t.true((comparison.total.diff ?? 0) >= 150, `B is about 250 ms slower: ${JSON.stringify(comparison.total)}`);
  t.is(comparison.total.diff, Math.round(((comparison.total.b ?? 0) - (comparison.total.a ?? 0)) * 1000) / 1000);
  t.true((comparison.total.percent ?? 0) > 100);
  const names = comparison.states.map((state) => state.name);
  for (const phase of ['kernel.request', 'kernel.controller', 'kernel.response', 'kernel.terminate']) t.true(names.includes(phase), phase);
  // The controller waited 250 ms: the state it ran in took most of the difference.
  const biggest = [...comparison.states].sort((x, y) => (y.diff ?? 0) - (x.diff ?? 0))[0];
  t.true((biggest?.diff ?? 0) >= 150, JSON.stringify(biggest));
  t.true(comparison.listeners.length > 0 && comparison.listeners.length <= 10);
  const changes = comparison.listeners.map((row) => Math.abs(row.diff ?? row.a ?? row.b ?? 0));
  t.deepEqual(changes, [...changes].sort((x, y) => y - x));
});

test('the comparison page shows both profiles side by side, a 404 against a 200, and links each profile', async (t) => {
  const res = await get(`/_profiler/${fast}/compare/${missing}`);
  t.is(res.status, 200);
  t.true(res.body.includes(`<h2>Compare ${fast} (A) with ${missing} (B)</h2>`));
  t.true(res.body.includes('<td>200 OK</td><td>404 Not Found</td>'));
  t.true(res.body.includes('<td>slow</td><td>(none)</td>'));
  t.true(res.body.includes(`href="/_profiler/${fast}"`) && res.body.includes(`href="/_profiler/${missing}"`));
  t.true(res.body.includes(`href="/_profiler/${missing}/compare/${fast}">Swap A and B</a>`));
  t.regex(res.body, /<tr data-name="kernel.request"><td class="mono">kernel.request<\/td><td>[\d.]+ ms<\/td><td>[\d.]+ ms<\/td><td class="diff[^"]*">[+−±][\d.]+ ms( \([+-]?[\d.]+ %\))?<\/td><\/tr>/);
  // A state only the 404 went through (its error sub-request).
  t.regex(res.body, /<td class="diff">only in B<\/td>/);
});

test('an unknown token is a 404 that names it, as HTML and as JSON', async (t) => {
  const html = await get(`/_profiler/${fast}/compare/abcdef`);
  t.is(html.status, 404);
  t.true(html.body.includes('Token &quot;abcdef&quot; not found.'));
  const json = await get(`/_profiler/fedcba/compare/${fast}`, { Accept: 'application/json' });
  t.is(json.status, 404);
  t.like(JSON.parse(json.body), { title: 'Token not found', detail: 'Token "fedcba" not found.' });
  t.is((await get(`/_profiler/${fast}/compare/not-a-token`)).status, 404);
});

test('the comparison answers only to allowed clients, as every profiler page', async (t) => {
  const other = await startTestServer({ PROFILER_ALLOWED_IPS: '10.0.0.0/8' });
  try {
    const res = await httpRequest(other.port, { path: `/_profiler/${fast}/compare/${slow}`, headers: { Accept: 'application/json' } });
    t.is(res.status, 403);
  } finally {
    await other.close();
  }
});

test('a profile page links "compare with…" the previous request of its route', async (t) => {
  const page = await get(`/_profiler/${slow}`);
  t.true(page.body.includes(`<a rel="compare" href="/_profiler/${fast}/compare/${slow}">the previous request of this route (${fast})</a>`), page.body.slice(0, 3000));
  const first = await get(`/_profiler/${fast}`);
  t.true(first.body.includes('Compare with… no earlier profile of this route'));
});
