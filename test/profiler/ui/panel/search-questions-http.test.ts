import test from 'ava';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { httpRequest, type HttpResult } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';

let server: TestServer;
const mark = randomBytes(4).toString('hex');
const token: Record<string, string> = {};

interface Row {
  readonly token: string;
  readonly parent: string | null;
  readonly url: string;
  readonly statusCode: number;
  readonly duration: number;
  readonly aborted: boolean;
}

interface Answer {
  readonly total: number;
  readonly page: number;
  readonly pages: number;
  readonly count: number;
  readonly complete: boolean;
  readonly results: Row[];
}

const get = (path: string, headers: Record<string, string> = {}): Promise<HttpResult> => httpRequest(server.port, { path, headers });

async function search(query: string): Promise<Answer> {
  const res = await get(`/_profiler/search?url=${mark}&${query}`, { Accept: 'application/json' });
  if (res.status !== 200) throw new Error(`search ${query}: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as Answer;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within 5 s.`);
    await sleep(10);
  }
}

/** A request whose client goes away before the answer: the server records it as aborted. */
async function abandon(path: string): Promise<void> {
  const socket = net.connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await sleep(50);
  socket.destroy();
}

test.before(async () => {
  server = await startTestServer();
  const { profiler } = server;
  if (profiler === null) throw new Error('no profiler');
  await until('The profile writer was not available', () => Promise.resolve(profiler.writer.isAvailable));
  const send = async (name: string, path: string): Promise<void> => {
    const res = await get(path);
    token[name] = String(res.headers['x-debug-token']);
    await sleep(5);
  };
  for (let i = 0; i < 5; i++) await send(`hello${i}`, `/hello/h${i}-${mark}`);
  await send('missing', `/missing-${mark}`);
  await send('boom', `/boom?m=${mark}`);
  await send('slow', `/slow?ms=600&m=${mark}`);
  await send('favicon', `/favicon.ico?m=${mark}`);
  await abandon(`/slow?ms=400&m=${mark}&gone=1`);
  // Every profile stored: 9 main requests, 3 error sub-requests (404, 500, favicon's 404), the aborted one.
  await until('The profiles were not all stored', async () => (await search('sub_requests=1&favicon=1')).total === 13);
});

test.after.always(async () => {
  await server?.close();
});

test('by default the search hides error sub-requests and favicon.ico, and counts every match', async (t) => {
  const answer = await search('');
  t.is(answer.total, 9);
  t.false(answer.results.some((row) => row.parent !== null));
  t.false(answer.results.some((row) => row.url.includes('favicon.ico')));
  const everything = await search('sub_requests=1&favicon=1');
  t.is(everything.total, 13);
  t.is(everything.results.filter((row) => row.parent !== null).length, 3);
  t.deepEqual((await search('favicon=1&status_code=404')).results.map((row) => row.token), [token['favicon'], token['missing']]);
});

test('status classes: 5xx, 4xx and 2xx besides exact codes', async (t) => {
  t.deepEqual((await search('status_code=5xx')).results.map((row) => row.token), [token['boom']]);
  t.deepEqual((await search('status_code=5XX&sub_requests=1')).results.map((row) => row.statusCode), [500, 500]);
  t.deepEqual((await search('status_code=4xx')).results.map((row) => row.token), [token['missing']]);
  t.is((await search('status_code=2xx')).total, 6);
  const bad = await get('/_profiler/search?status_code=6xx', { Accept: 'application/json' });
  t.is(bad.status, 400);
  t.regex(JSON.parse(bad.body).detail, /^Invalid search filter "status_code" "6xx": expected an HTTP status code from 100 to 599, or a class from 1xx to 5xx\.$/);
});

test('a request whose client went away is found with aborted=1, with status 0', async (t) => {
  const aborted = await search('aborted=1');
  t.is(aborted.total, 1);
  t.like(aborted.results[0], { statusCode: 0, aborted: true });
  t.true(aborted.results[0]?.url.includes('gone=1'));
});

test('sorted by duration, slowest first or fastest first; each row has its duration', async (t) => {
  const slowest = await search('sort=duration');
  const durations = slowest.results.map((row) => row.duration);
  t.deepEqual(durations, [...durations].sort((a, b) => b - a));
  t.true(slowest.results.slice(0, 2).some((row) => row.token === token['slow']));
  const fastest = await search('sort=duration&order=asc');
  // The same requests, shortest first; requests of equal duration may come in either order.
  const ascending = fastest.results.map((row) => row.duration);
  t.deepEqual(ascending, [...ascending].sort((a, b) => a - b));
  const tokens = (rows: readonly { token: string }[]): string[] => rows.map((row) => row.token).sort();
  t.deepEqual(tokens(fastest.results), tokens(slowest.results));
  t.is(fastest.results.at(-1)?.duration, slowest.results[0]?.duration);
  const oldest = await search('order=asc&limit=2');
  t.deepEqual(oldest.results.map((row) => row.token), [token['hello0'], token['hello1']]);
});

test('pages of a given size, with the total, and links to the next and previous pages keeping the criteria', async (t) => {
  const first = await search('status_code=2xx&limit=4');
  t.like(first, { total: 6, page: 1, pages: 2, count: 4 });
  const second = await search('status_code=2xx&limit=4&page=2');
  t.like(second, { total: 6, page: 2, pages: 2, count: 2 });
  t.deepEqual([...first.results, ...second.results].map((row) => row.token).sort(), (await search('status_code=2xx')).results.map((row) => row.token).sort());

  const page = await get(`/_profiler/empty/search/results?url=${mark}&status_code=2xx&limit=4&sort=duration`);
  t.is(page.status, 200);
  t.true(page.body.includes('<h2 class="result-count" data-total="6">6 results found</h2>'));
  t.true(page.body.includes('1–4 of 6, page 1 of 2'));
  const next = /<a rel="next" href="\?([^"]*)">/.exec(page.body)?.[1] ?? '';
  const query = new URLSearchParams(next.replaceAll('&amp;', '&'));
  t.deepEqual(Object.fromEntries(query), { url: mark, status_code: '2xx', limit: '4', sort: 'duration', page: '2' });
  t.false(page.body.includes('rel="prev"'));
  const nextPage = await get(`/_profiler/empty/search/results?${query.toString()}`);
  t.true(nextPage.body.includes('5–6 of 6, page 2 of 2'));
  t.true(nextPage.body.includes('rel="prev"'));
  t.false(nextPage.body.includes('rel="next"'));
  t.true(nextPage.body.includes('<option value="duration" selected>'));
  // The toggles are checkboxes, unticked by default.
  t.true(nextPage.body.includes('<input type="checkbox" name="sub_requests" value="1" />'));
  const bad = await get('/_profiler/search?page=0', { Accept: 'application/json' });
  t.is(bad.status, 400);
});
