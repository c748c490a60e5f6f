import test from 'ava';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { httpRequest, type HttpResult } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { LIVE_SCRIPT } from '../../../../src/profiler/ui/panel/live-script';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});

test.after.always(async () => {
  await server?.close();
});

interface Row {
  readonly token: string;
  readonly parent: string | null;
  readonly method: string;
  readonly url: string;
  readonly statusCode: number;
  readonly time: number;
}

const get = (path: string, headers: Record<string, string> = {}): Promise<HttpResult> => httpRequest(server.port, { path, headers });

async function search(query: string): Promise<Row[]> {
  const res = await get(`/_profiler/search?${query}`, { Accept: 'application/json' });
  if (res.status !== 200) throw new Error(`search ${query}: ${res.status} ${res.body}`);
  return (JSON.parse(res.body) as { results: Row[] }).results;
}

/** Sends requests one after the other, 5 ms apart so that no two share a start millisecond; answers their tokens. */
async function sendAll(requests: readonly { method?: string; path: string; body?: string }[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const request of requests) {
    const headers: Record<string, string> = request.body === undefined ? {} : { 'Content-Type': 'application/json' };
    const res = await httpRequest(server.port, { ...request, headers });
    tokens.push(String(res.headers['x-debug-token']));
    await sleep(5);
  }
  await server.profiler?.writer.whenIdle();
  return tokens;
}

test('filters by method, status, URL substring and IP return the right rows, newest first', async (t) => {
  const mark = randomBytes(4).toString('hex');
  const [anna, echo, missing, bob] = await sendAll([
    { path: `/hello/anna-${mark}` },
    { method: 'POST', path: `/api/echo?m=${mark}`, body: '{"a":1}' },
    { path: `/missing-${mark}.yaml` },
    { path: `/hello/bob-${mark}` },
  ]);
  const tokens = (rows: Row[]): string[] => rows.map((row) => row.token);
  t.deepEqual(tokens(await search(`url=${mark}&method=post`)), [echo]);
  t.deepEqual(tokens(await search(`url=${encodeURIComponent(`/hello/bob-${mark}`)}`)), [bob]);
  t.deepEqual(tokens(await search(`url=-${mark}&status_code=200`)), [bob, anna]);
  const notFound = await search(`url=missing-${mark}&status_code=404&sub_requests=1`);
  t.is(notFound.length, 2, 'the 404 and its error sub-request');
  t.true(notFound.some((row) => row.token === missing && row.parent === null));
  t.true(notFound.some((row) => row.parent === missing));
  const all = await search(`url=${mark}&ip=127.0.0.1&sub_requests=1`);
  t.is(all.length, 5);
  t.deepEqual([...all].sort((a, b) => b.time - a.time).map((row) => row.time), all.map((row) => row.time), 'newest first');
  t.deepEqual(await search(`url=${mark}&ip=10.9.9.9`), []);
  t.deepEqual(tokens(await search(`url=${mark}&limit=1`)), [bob]);
});

test('start and end take epoch milliseconds or an ISO date', async (t) => {
  const mark = randomBytes(4).toString('hex');
  const [first, second] = await sendAll([{ path: `/hello/t1-${mark}` }, { path: `/hello/t2-${mark}` }]);
  const rows = await search(`url=${mark}`);
  const time = (token: string | undefined): number => rows.find((row) => row.token === token)?.time ?? NaN;
  t.deepEqual((await search(`url=${mark}&start=${time(second)}`)).map((row) => row.token), [second]);
  t.deepEqual((await search(`url=${mark}&end=${encodeURIComponent(new Date(time(first)).toISOString())}`)).map((row) => row.token), [first]);
});

test('the HTML results: the filter form prefilled, the table, a sub-request under its parent', async (t) => {
  const mark = randomBytes(4).toString('hex');
  const [missing] = await sendAll([{ path: `/gone-${mark}` }]);
  const res = await get(`/_profiler/empty/search/results?url=gone-${mark}&method=get&sub_requests=1`);
  t.is(res.status, 200);
  t.true(res.body.includes(`name="url" value="gone-${mark}"`));
  t.true(res.body.includes('name="method" value="GET"'));
  t.true(res.body.includes('2 results found'));
  for (const heading of ['Status', 'IP', 'Method', 'URL', 'Time', 'Duration', 'Token']) t.true(res.body.includes(`<th>${heading}</th>`), heading);
  const mainRow = res.body.indexOf(`<tr class="main" data-token="${missing}">`);
  const subRow = res.body.indexOf('<tr class="sub"');
  t.true(mainRow >= 0 && subRow > mainRow, 'the error sub-request is listed right under its parent');
  t.true(res.body.includes(`href="/_profiler/${missing}"`));
  const none = await get(`/_profiler/empty/search/results?url=nothing-${mark}`);
  t.true(none.body.includes('No results found'));
});

test('/_profiler/ and /_profiler/search redirect a browser to the results page, as WebProfilerBundle; JSON clients get results; a bad filter is a 400', async (t) => {
  const home = await get('/_profiler/');
  t.is(home.status, 302);
  // 10, as Symfony's home redirect; a search without a limit shows 50.
  t.is(home.headers['location'], '/_profiler/empty/search/results?limit=10');
  const results = await get('/_profiler/empty/search/results?limit=10');
  t.is(results.status, 200);
  t.true(results.body.includes('<h2>Profile Search</h2>'));
  t.is((await get('/_profiler')).headers['location'], `http://127.0.0.1:${server.port}/_profiler/`);
  const jump = await get('/_profiler/search?token=ABC123&method=GET');
  t.is(jump.status, 302);
  t.is(jump.headers['location'], '/_profiler/abc123/search/results?method=GET&type=request');
  t.is((await get('/_profiler/search?url=x')).headers['location'], '/_profiler/empty/search/results?url=x&type=request');
  const json = await get('/_profiler/search?method=GET', { Accept: 'application/json' });
  t.is(json.status, 200);
  t.true(Array.isArray(JSON.parse(json.body).results));
  const bad = await get('/_profiler/search?status_code=abc', { Accept: 'application/json' });
  t.is(bad.status, 400);
  t.regex(JSON.parse(bad.body).detail, /^Invalid search filter "status_code" "abc"/);
});

test('/_profiler/search redirects with the query ProfilerController::searchAction() generates: its filters in its order, then type, request unless sent', async (t) => {
  const location = async (query: string): Promise<unknown> => (await get(`/_profiler/search${query}`)).headers['location'];
  t.is(await location('?method=GET&status_code=200&limit=5'), '/_profiler/empty/search/results?method=GET&status_code=200&limit=5&type=request');
  t.is(await location('?type=request&limit=5&url=/a+b&ip=127.0.0.1'), '/_profiler/empty/search/results?ip=127.0.0.1&url=%2Fa%20b&limit=5&type=request');
  t.is(await location(''), '/_profiler/empty/search/results?type=request');
  // A filter sent empty is kept, as http_build_query keeps '' and drops only null; Loupe's own filters follow.
  t.is(await location('?sort=duration&ip=&method=POST'), '/_profiler/empty/search/results?ip=&method=POST&type=request&sort=duration');
});

test('profiler pages carry no X-Debug-Token and are never stored', async (t) => {
  const [token] = await sendAll([{ path: '/hello/pages' }]);
  for (const path of ['/_profiler/', '/_profiler/search?method=GET', '/_profiler/status', `/_profiler/${token}`, `/_profiler/${token}?panel=events`, '/_profiler/latest', '/_profiler/abcdef', `/_profiler/${token}?panel=nope`, '/_profiler/search?limit=0', '/_profiler/empty/search/results?limit=10', '/_profiler']) {
    for (const accept of ['text/html', 'application/json']) {
      const res = await get(path, { Accept: accept });
      t.is(res.headers['x-debug-token'], undefined, `${path} ${accept}`);
      t.is(res.headers['x-debug-token-link'], undefined, `${path} ${accept}`);
    }
  }
  await server.profiler?.writer.whenIdle();
  t.deepEqual(await search('url=/_profiler'), []);
});

test('request data is escaped everywhere: a script in the path, markup in the Referer', async (t) => {
  const res = await httpRequest(server.port, { path: '/<script>window.__xss=1</script>', headers: { Referer: '"><img src=x onerror="window.__xss=2">' } });
  t.is(res.status, 404);
  const token = String(res.headers['x-debug-token']);
  await server.profiler?.writer.whenIdle();
  const pages = [`/_profiler/${token}`, `/_profiler/${token}?panel=request`, `/_profiler/${token}?panel=router`, `/_profiler/${token}?panel=logs`, '/_profiler/empty/search/results?url=script'];
  for (const path of pages) {
    const page = await get(path);
    t.is(page.status, 200, path);
    // The search page runs one script, its own live list, and the CSP allows that one only.
    t.false(page.body.replace(`<script>${LIVE_SCRIPT}</script>`, '').includes('<script'), path);
    t.false(page.body.includes('<img'), path);
    t.true(page.body.includes('&lt;script&gt;window.__xss=1&lt;/script&gt;'), path);
  }
  const summary = (await get(`/_profiler/${token}?panel=request`)).body;
  t.true(summary.includes('&quot;&gt;&lt;img src=x onerror=&quot;window.__xss=2&quot;&gt;'));
  t.false(summary.includes('href="&quot;'), 'a Referer that is no web URL is not a link');
});
