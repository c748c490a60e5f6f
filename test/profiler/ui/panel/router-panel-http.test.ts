import test from 'ava';
import { profileRequests } from '../cli/profile-requests';
import { httpRequest, type HttpRequestOptions } from '../../../helpers/http-client';
import { sampleProfile } from '../../../helpers/sample-profile';
import { summarize } from '../../../../src/profiler/profile';
import { startTestServer, type TestServer } from '../../../helpers/test-server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});

test.after.always(async () => {
  await server?.close();
});

interface TracedRoute {
  readonly name: string;
  readonly path: string;
  readonly level: number;
  readonly log: string;
}

interface RouterEntry {
  readonly route: string | null;
  readonly path: string | null;
  readonly params: Record<string, string>;
  readonly defaults: Record<string, string>;
  readonly failure: string | null;
  readonly matching: { method: string; path: string; routes: TracedRoute[]; omitted: number } | null;
}

/** Profiles `request` and reads back its router entry through the JSON API, and its Routing panel's HTML. */
async function routing(request: HttpRequestOptions): Promise<{ token: string; status: number; entry: RouterEntry; panel: string }> {
  const [token = ''] = await profileRequests(server, [request]);
  const json = await httpRequest(server.port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
  const profile = JSON.parse(json.body) as { statusCode: number; collectors: { router: RouterEntry } };
  const panel = await httpRequest(server.port, { path: `/_profiler/${token}?panel=router` });
  if (panel.status !== 200) throw new Error(`The Routing panel of ${token} answered ${panel.status}.`);
  return { token, status: profile.statusCode, entry: profile.collectors.router, panel: panel.body };
}

/** The rows of the panel's route matching table: number, route, path, log text, classes. */
function tableRows(panel: string): { name: string; path: string; log: string; classes: string }[] {
  const rows = [...panel.matchAll(/<tr id="route-trace-\d+"(?: class="([^"]*)")? data-level="\d"><td>\d+<\/td><td class="mono">([^<]*)<\/td><td class="mono">([^<]*)<\/td><td>(.*?)<\/td><\/tr>/g)];
  return rows.map(([, classes = '', name = '', path = '', log = '']) => ({ name, path, log: log.replace(/<[^>]+>/g, ''), classes }));
}

const outcome = (entry: RouterEntry, name: string): TracedRoute | undefined => entry.matching?.routes.find((route) => route.name === name);

test('a 404 (GET /nope) stores every route tried, the profiler\'s and the application\'s, none matching', async (t) => {
  const { status, entry, panel } = await routing({ path: '/nope' });
  t.is(status, 404);
  t.is(entry.route, null);
  t.is(entry.matching?.method, 'GET');
  t.is(entry.matching?.path, '/nope');
  const names = entry.matching?.routes.map((route) => route.name) ?? [];
  t.deepEqual(names.slice(0, 2), ['_profiler_home', '_profiler_search']);
  t.true(names.includes('hello') && names.at(-1) === 'io_users_n_plus_one', names.join(', '));
  t.true(entry.matching?.routes.every((route) => route.level === 0 && route.log === `Path "${route.path}" does not match`));
  t.is(entry.matching?.omitted, 0);

  t.true(panel.includes('<h3>Route matching log</h3>'));
  t.true(panel.includes('<code>GET /nope</code>'));
  t.true(panel.includes('No route almost matches'));
  const rows = tableRows(panel);
  // The application's routes in the table; the profiler's own, tried first, folded below it (one click).
  const isProfilers = (name: string): boolean => name.startsWith('_profiler') || name.startsWith('_wdt');
  const [table = '', folded = ''] = panel.split('<details class="profiler-routes">');
  t.deepEqual(tableRows(table).map((row) => row.name), names.filter((name) => !isProfilers(name)));
  t.deepEqual(tableRows(folded).map((row) => row.name), names.filter(isProfilers));
  t.true(folded.startsWith(`<summary>The profiler's own ${names.filter(isProfilers).length} routes (tried first, none matched)</summary>`), folded.slice(0, 200));
  t.true(rows.every((row) => row.log === 'Path does not match' && row.classes === ''));
  t.true(rows.some((row) => row.name === 'hello' && row.path === '/hello/{name}'));
  // Each table numbers its rows from 1: the application's first route is #1, not #10 after the hidden ones.
  const numbers = (html: string): number[] => [...html.matchAll(/<tr id="route-trace-\d+"[^>]*><td>(\d+)<\/td>/g)].map(([, number = '']) => Number(number));
  t.deepEqual(numbers(table), tableRows(table).map((_, index) => index + 1));
  t.deepEqual(numbers(folded), tableRows(folded).map((_, index) => index + 1));
  t.false(panel.includes('<th class="key"></th>'), 'no empty header row');
});

test('a 405 (POST /hello/anna) shows the GET route almost matching on its method, highlighted as the closest', async (t) => {
  const { status, entry, panel } = await routing({ method: 'POST', path: '/hello/anna' });
  t.is(status, 405);
  t.regex(entry.failure ?? '', /Method Not Allowed \(Allow: GET\)$/);
  t.deepEqual(outcome(entry, 'hello'), { name: 'hello', path: '/hello/{name}', level: 1, log: 'Method "POST" does not match any of the required methods (GET)' });
  const hello = tableRows(panel).find((row) => row.name === 'hello');
  t.is(hello?.log, 'Path almost matches, but Method &quot;POST&quot; does not match any of the required methods (GET)');
  t.is(hello?.classes, 'status-warning closest');
  t.regex(panel, /<strong>Closest route:<\/strong> <a href="#route-trace-\d+"><code>hello<\/code><\/a>/);
});

test('a requirement mismatch (GET /it/hello/anna) names the requirement and its pattern', async (t) => {
  const { status, entry, panel } = await routing({ path: '/it/hello/anna' });
  t.is(status, 404);
  t.deepEqual(outcome(entry, 'hello_localized'), {
    name: 'hello_localized',
    path: '/{_locale}/hello/{name}',
    level: 1,
    log: 'Requirement for "_locale" does not match (en|fr|de)',
  });
  const row = tableRows(panel).find((candidate) => candidate.name === 'hello_localized');
  t.is(row?.log, 'Path almost matches, but Requirement for &quot;_locale&quot; does not match (en|fr|de)');
  t.is(row?.classes, 'status-warning closest');
  // The profiler's own route with a requirement, tried first: a token that is not one.
  const { entry: profilerEntry } = await routing({ path: '/_profiler/zzzzzz' });
  t.is(outcome(profilerEntry, '_profiler')?.log, 'Requirement for "token" does not match ([0-9a-f]{6}|latest)');
});

test('trailing-slash near misses (POST /api/echo/, GET /login/) say why there was no redirect', async (t) => {
  const post = await routing({ method: 'POST', path: '/api/echo/', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  t.is(post.status, 404);
  t.deepEqual(outcome(post.entry, 'api_echo'), { name: 'api_echo', path: '/api/echo', level: 1, log: 'Trailing slash does not match: a POST request is not redirected to "/api/echo"' });
  t.is(tableRows(post.panel).find((row) => row.name === 'api_echo')?.classes, 'status-warning closest');

  const login = await routing({ path: '/login/' });
  t.is(login.status, 404);
  t.is(outcome(login.entry, 'login')?.log, 'Trailing slash does not match, and method "GET" does not match any of the required methods (POST)');
});

test('a matched request shows its route, path pattern, parameters and defaults, and traces nothing', async (t) => {
  const { status, entry, panel } = await routing({ path: '/fr/hello/anna' });
  t.is(status, 200);
  t.like(entry, { route: 'hello_localized', path: '/{_locale}/hello/{name}', failure: null, matching: null });
  t.like(entry.params, { _route: 'hello_localized', _locale: 'fr', name: 'anna' });
  t.deepEqual(entry.defaults, {});
  t.true(panel.includes('Matched route <code class="matched-route">hello_localized</code>.'));
  t.true(panel.includes('<pre>/{_locale}/hello/{name}</pre>'));
  t.true(panel.includes('<h3>Route defaults</h3>\n<p class="empty">No defaults.</p>'));
  t.false(panel.includes('Route matching log'));
});

test('a trailing-slash redirect (GET /hello/anna/) is a matched route that shows where it redirects', async (t) => {
  const { status, entry, panel } = await routing({ path: '/hello/anna/' });
  t.is(status, 301);
  t.like(entry, { route: 'hello', path: '/hello/{name}', matching: null });
  t.true(panel.includes('This page redirects to <code class="redirect-target">/hello/anna</code>'));
});

test('a 404 profile stored before Loupe recorded the routes tried still opens, and says why they are missing', async (t) => {
  const old = sampleProfile({
    token: '01d404',
    // Within PROFILER_LIFETIME: older profiles are trimmed as soon as the next one is stored.
    time: Date.now(),
    statusCode: 404,
    collectors: { router: { route: null, controller: null, params: {}, failure: 'No route found for "GET http://127.0.0.1:8000/hello"' } },
  });
  await server.profiler?.storage.write([{ summary: summarize(old), json: JSON.stringify(old) }]);
  const panel = await httpRequest(server.port, { path: '/_profiler/01d404?panel=router' });
  t.is(panel.status, 200);
  t.true(panel.body.includes('<span class="routing-failure">No route found for &quot;GET http://127.0.0.1:8000/hello&quot;</span>'));
  t.true(panel.body.includes('This profile was stored before Loupe recorded the routes tried.'));
  const json = await httpRequest(server.port, { path: '/_profiler/01d404', headers: { Accept: 'application/json' } });
  t.is(json.status, 200);
});
