import test from 'ava';
import { eventsOf } from '../../../../src/profiler/collect/collectors/events-view';
import { type Profile } from '../../../../src/profiler/profile';
import { httpRequest, type HttpResult } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';

let server: TestServer;
let origin: string;

test.before(async () => {
  server = await startTestServer();
  origin = `http://127.0.0.1:${server.port}`;
});

test.after.always(async () => {
  await server?.close();
});

const get = (path: string, headers: Record<string, string> = {}): Promise<HttpResult> => httpRequest(server.port, { path, headers });
const getJson = async (path: string): Promise<{ status: number; body: Record<string, unknown>; res: HttpResult }> => {
  const res = await get(path, { Accept: 'application/json' });
  return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown>, res };
};

function profiler(): NonNullable<TestServer['profiler']> {
  if (server.profiler === null) throw new Error('The test server runs with debug: the profiler must be on.');
  return server.profiler;
}

/** Makes a request and waits until its profiles are stored; answers its tokens and the panel path. */
async function profiled(path: string, headers: Record<string, string> = {}): Promise<{ token: string; previous: string | undefined; panelPath: string; res: HttpResult }> {
  const res = await get(path, headers);
  await profiler().writer.whenIdle();
  const link = res.headers['x-debug-token-link'];
  if (typeof link !== 'string') throw new Error(`No X-Debug-Token-Link on ${path}`);
  const previous = res.headers['x-previous-debug-token'];
  return { token: String(res.headers['x-debug-token']), previous: typeof previous === 'string' ? previous : undefined, panelPath: new URL(link).pathname, res };
}

const names = (records: unknown): string[] => (records as { name: string }[]).map((record) => record.name);

/** The entry of collector `name` in a profile's JSON. */
const entry = (body: Record<string, unknown>, name: string): Record<string, unknown> => (body['collectors'] as Record<string, Record<string, unknown>>)[name] ?? {};

function assertNotProfiled(t: { is: (a: unknown, b: unknown, m?: string) => void }, res: HttpResult, path: string): void {
  t.is(res.headers['x-debug-token'], undefined, path);
  t.is(res.headers['x-debug-token-link'], undefined, path);
}

// Serial tests run before the concurrent ones: nothing is stored yet.
test.serial('latest with no profile stored is a 404: No profiles found.', async (t) => {
  const html = await get('/_profiler/latest');
  t.is(html.status, 404);
  t.true(html.body.includes('No profiles found.'));
  const json = await getJson('/_profiler/latest');
  t.is(json.status, 404);
  t.is(json.body['detail'], 'No profiles found.');
});

test('the panel of GET /config.yaml shows the 404, its inner cause, the trace, and the exception panel by default', async (t) => {
  const { panelPath, token, previous } = await profiled('/config.yaml');
  t.is(panelPath, `/_profiler/${token}`);
  const res = await get(panelPath);
  t.is(res.status, 200);
  assertNotProfiled(t, res, panelPath);
  t.regex(String(res.headers['content-type']), /^text\/html; charset=UTF-8/);
  t.regex(String(res.headers['content-security-policy']), /default-src 'none'/);
  t.true(res.body.includes('<title>Loupe Profiler</title>'));
  t.true(res.body.includes('Error 404 Not Found'));
  t.true(res.body.includes(`No route found for &quot;GET ${origin}/config.yaml&quot;`));
  t.true(res.body.includes('No routes found for &quot;/config.yaml/&quot;.'));
  t.true(res.body.includes('NotFoundHttpError') && res.body.includes('ResourceNotFoundError'));
  t.regex(res.body, /toHttpError<\/span> <span class="loc">[^<]*src\/routing\/router-listener\.ts:\d+:\d+/);
  t.true(res.body.includes('aria-current="page" data-panel="exception"'));
  t.true(res.body.includes('id="panel-exception"'));
  // The error sub-request's profile is a child link.
  t.truthy(previous);
  t.true(res.body.includes(`href="/_profiler/${previous}"`));
  t.regex(res.body, /data-counter="dropped">\d+</);
});

test('a 4xx reads amber and a 5xx red, as in Symfony: in the profile\'s summary and in the toolbar', async (t) => {
  const notFound = await profiled('/config.yaml');
  const boom = await profiled('/boom');
  const page404 = (await get(notFound.panelPath)).body;
  const page500 = (await get(boom.panelPath)).body;
  t.true(page404.includes('<section class="summary status-warning">'));
  t.true(page404.includes('<span class="status-warning-text">Error 404 Not Found</span>'));
  t.true(page500.includes('<section class="summary status-error">'));
  t.true(page500.includes('<span class="status-error-text">Error 500 Internal Server Error</span>'));
  t.regex(page404, /\.status-warning-text \{ color: #a46a1f; \}/);
  t.true((await get(`/_wdt/${notFound.token}`)).body.includes('lwdt-item lwdt-status lwdt-status-warning'));
  t.true((await get(`/_wdt/${boom.token}`)).body.includes('lwdt-item lwdt-status lwdt-status-error'));
});

test('the JSON of the /config.yaml profile: messages, trace, phases in order, the child profile', async (t) => {
  const { token, previous } = await profiled('/config.yaml');
  const { status, body, res } = await getJson(`/_profiler/${token}`);
  t.is(status, 200);
  assertNotProfiled(t, res, token);
  t.is(body['token'], token);
  t.is(body['statusCode'], 404);
  t.deepEqual(body['children'], [previous]);
  t.is(body['version'], 1, 'the JSON API answers the form of version 1 (its timeline of span objects), and says so');
  const [error] = entry(body, 'exception')['errors'] as { message: string; trace: unknown[]; previous: { message: string }[] }[];
  t.is(error?.message, `No route found for "GET ${origin}/config.yaml"`);
  t.is(error?.previous[0]?.message, 'No routes found for "/config.yaml/".');
  t.true((error?.trace.length ?? 0) > 0);
  t.deepEqual(names(eventsOf(body as unknown as Profile)?.phases), ['kernel.request', 'kernel.exception', 'kernel.response', 'kernel.finish_request', 'kernel.terminate']);
  const [child] = body['childProfiles'] as { token: string; parent: string; statusCode: number; stored: boolean }[];
  t.deepEqual([child?.token, child?.parent, child?.statusCode, child?.stored], [previous, token, 404, true]);

  const sub = await getJson(`/_profiler/${String(previous)}`);
  t.is(sub.status, 200);
  t.is(sub.body['parent'], token);
  t.is(sub.body['type'], 'sub');
  t.deepEqual(names(eventsOf(sub.body as unknown as Profile)?.phases), ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'kernel.response', 'kernel.finish_request']);
  const subPage = await get(`/_profiler/${String(previous)}?panel=events`);
  t.true(subPage.body.includes(`Sub-request of <a class="mono" href="/_profiler/${token}">${token}</a>`));
  t.true(subPage.body.indexOf('data-name="kernel.controller"') < subPage.body.indexOf('data-name="kernel.controller_arguments"'));
});

test("an error sub-request's profile stores its parent's error once, by reference; its panel, its JSON and its badge show the error in full", async (t) => {
  const { token, previous } = await profiled('/sub-only.yaml');
  const subToken = String(previous);
  await profiler().writer.whenIdle();
  const read = await profiler().storage.read(subToken);
  if (read.kind !== 'found') return t.fail(`no profile stored under ${subToken}`);
  const stored = JSON.parse(read.json) as { collectors: { exception: { errors: unknown[] } } };
  t.deepEqual(stored.collectors.exception.errors, [{ sameAs: { profile: token, index: 0 } }]);

  const main = await getJson(`/_profiler/${token}`);
  const sub = await getJson(`/_profiler/${subToken}`);
  t.is(sub.status, 200);
  t.deepEqual(entry(sub.body, 'exception')['errors'], entry(main.body, 'exception')['errors']);
  const [error] = entry(sub.body, 'exception')['errors'] as { class: string; message: string }[];
  t.deepEqual([error?.class, error?.message], ['NotFoundHttpError', `No route found for "GET ${origin}/sub-only.yaml"`]);

  const page = await get(`/_profiler/${subToken}?panel=exception`);
  t.true(page.body.includes(`No route found for &quot;GET ${origin}/sub-only.yaml&quot;`));
  t.true(page.body.includes('No routes found for &quot;/sub-only.yaml/&quot;.'));
  t.regex(page.body, /toHttpError<\/span> <span class="loc">[^<]*src\/routing\/router-listener\.ts:\d+:\d+/);
  t.true(page.body.includes('data-panel="exception"><span>Exception</span><span class="badge error">1</span>'));
});

test('every panel renders what it is about', async (t) => {
  const { panelPath } = await profiled('/config.yaml?q=1', { Referer: 'http://example.com/from', Cookie: 'theme=dark' });
  const expected: Record<string, string[]> = {
    request: ['Request headers', '>referer<', 'http://example.com/from', '>q<', '>theme<', '******', 'Response headers', '>X-Debug-Token<', '>X-Robots-Tag<'],
    exception: ['No route found for &quot;GET', 'Previous error'],
    events: ['data-name="kernel.request"', 'RouterListener', '<td>32</td>', 'ErrorListener', 'ProfilerListener'],
    router: ['No route matched', 'No route found for &quot;GET', '(none)'],
    logs: ['Uncaught Exception NotFoundHttpError', 'No route matched.', 'level-error'],
    machine: ['kernel.exception', 'error_sub_request', 'kernel.finish_request', 'kernel.terminate'],
  };
  for (const [panel, needles] of Object.entries(expected)) {
    const res = await get(`${panelPath}?panel=${panel}`);
    t.is(res.status, 200, panel);
    t.true(res.body.includes(`aria-current="page" data-panel="${panel}"`), panel);
    for (const needle of needles) t.true(res.body.includes(needle), `${panel}: ${needle}`);
  }
  const events = (await get(`${panelPath}?panel=events`)).body;
  const order = ['kernel.request', 'kernel.exception', 'kernel.response', 'kernel.finish_request'].map((phase) => events.indexOf(`data-name="${phase}"`));
  t.deepEqual([...order].sort((a, b) => a - b), order);
  t.false(order.includes(-1));
});

test('a matched route: request panel by default, router panel with _route, _controller and the parameters', async (t) => {
  const { panelPath } = await profiled('/hello/anna');
  const page = await get(panelPath);
  t.true(page.body.includes('aria-current="page" data-panel="request"'));
  t.true(page.body.includes('<h2>200 OK</h2>'));
  const router = (await get(`${panelPath}?panel=router`)).body;
  t.true(router.includes('Matched route <code class="matched-route">hello</code>'));
  for (const needle of ['>_route<', '>_controller<', 'hello.hello', '>name<', 'anna']) t.true(router.includes(needle), needle);
  t.true((await get(`${panelPath}?panel=exception`)).body.includes('No exception was thrown and caught.'));
});

test('the request panel gives the time once, the response\'s status as a line of text, not a table of one row', async (t) => {
  const { panelPath } = await profiled('/hello/tim');
  const { body } = await get(panelPath);
  const iso = /<time datetime="([^"]+)"/.exec(body)?.[1] ?? 'no time';
  t.regex(iso, /^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
  t.is(body.split(iso).length - 1, 2, 'the ISO time only in the datetime and title of the one <time>');
  t.regex(body, /<time datetime="[^"]+" title="[^"]+">\w{3}, \d\d \w{3} \d{4} [\d:]+ GMT<\/time>/);
  t.true(body.includes('<h2>Response</h2>\n<p class="response-status">Status <strong>200 OK</strong></p>'));
  t.false(body.includes('status_code'));
});

test('an unknown token is Symfony\'s "Token not found" page (a 404 for JSON); an unknown panel and a tombstone are 404s that say so', async (t) => {
  t.is((await profiler().storage.read('abcdef')).kind, 'missing');
  const unknown = await get('/_profiler/abcdef');
  t.is(unknown.status, 200);
  assertNotProfiled(t, unknown, 'unknown token');
  t.true(unknown.body.includes('<h2>Token not found</h2>'));
  t.true(unknown.body.includes('Token &quot;abcdef&quot; not found.'));
  t.is((await getJson('/_profiler/abcdef')).status, 404);
  t.is((await getJson('/_profiler/abcdef')).body['detail'], 'Token "abcdef" not found.');

  const { token } = await profiled('/hello/bob');
  // Symfony's name of the log panel opens Loupe's.
  const logger = await get(`/_profiler/${token}?panel=logger`);
  t.is(logger.status, 200);
  t.true(logger.body.includes('aria-current="page" data-panel="logs"'));
  const panel = await get(`/_profiler/${token}?panel=nope`);
  t.is(panel.status, 404);
  assertNotProfiled(t, panel, 'unknown panel');
  t.true(panel.body.includes(`Panel &quot;nope&quot; is not available for token &quot;${token}&quot;.`));
  t.is((await getJson(`/_profiler/${token}?panel=nope`)).body['detail'], `Panel "nope" is not available for token "${token}".`);

  await profiler().storage.markDropped(['d0d0d0'], 'Dropped: Redis was unavailable when this profile was to be stored.');
  const dropped = await getJson('/_profiler/d0d0d0');
  t.is(dropped.status, 404);
  t.is(dropped.body['detail'], 'The profile of token "d0d0d0" was dropped and is not available: Dropped: Redis was unavailable when this profile was to be stored.');
  // Not the profiler's token format: not its route, so the router's 404.
  t.is((await get('/_profiler/ABCDEF')).status, 404);
});

test.serial('latest is the newest main-request profile, not its error sub-request', async (t) => {
  const { token, previous } = await profiled('/config.yaml?latest');
  const latest = await getJson('/_profiler/latest');
  t.is(latest.status, 200);
  t.is(latest.body['token'], token);
  t.not(latest.body['token'], previous);
});

test('the status page shows the counters in HTML and JSON', async (t) => {
  await profiled('/hello/status');
  const { status, body, res } = await getJson('/_profiler/status');
  t.is(status, 200);
  assertNotProfiled(t, res, 'status');
  t.true((body['stored'] as number) >= 1);
  for (const key of ['dropped', 'notProfiled', 'queued', 'writerState', 'indexed']) t.true(key in body, key);
  const html = await get('/_profiler/status');
  t.regex(html.body, /data-counter="dropped">\d+</);
  t.regex(html.body, /data-counter="writer-state">\w+</);
});
