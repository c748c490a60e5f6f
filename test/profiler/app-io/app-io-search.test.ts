import test from 'ava';
import { comparePath, ProfilerPaths, resultsPath } from '../../../src/profiler/profiler-paths';
import { httpRequest } from '../../helpers/http-client';
import { ROWS, startQueryLoopApp, type QueryLoopApp } from './query-loop-app';

// The N+1 and least-queries filters and the I/O rows of the compare page, on requests that ran
// real SQL on PostgreSQL: the search row counts what the db collector captured.

let app: QueryLoopApp;

test.before(async () => {
  app = await startQueryLoopApp();
});

test.after.always(async () => {
  await app?.close();
});

interface SearchJson {
  readonly filters: Record<string, unknown>;
  readonly total: number;
  readonly results: readonly { token: string; queries?: number; queryTime?: number; nPlusOne?: number; httpCalls?: number; redisCommands?: number }[];
}

async function searchJson(query: string): Promise<SearchJson> {
  const res = await httpRequest(app.io.port, { path: `${ProfilerPaths.SEARCH}?${query}`, headers: { Accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`search ?${query} answered ${res.status}: ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as SearchJson;
}

const tokensOf = (result: SearchJson): string[] => result.results.map((row) => row.token).sort();

test('the JSON search with n_plus_one=1 finds the request that ran a query in a loop, and not those that did not', async (t) => {
  const { loop, joined, report } = app.tokens;
  const all = await searchJson('');
  t.deepEqual(tokensOf(all), [loop, joined, report].sort(), 'without a filter every request is found');
  const found = await searchJson('n_plus_one=1');
  t.deepEqual(tokensOf(found), [loop]);
  t.like(found.filters, { nPlusOne: true });
  t.like(found.results[0], { token: loop, queries: ROWS + 1, nPlusOne: 1, httpCalls: 2, redisCommands: 1 });
  t.true((found.results[0]?.queryTime ?? 0) > 0);
});

test('min_queries finds the requests that ran at least that many queries, a loop or not', async (t) => {
  const { loop, report } = app.tokens;
  t.deepEqual(tokensOf(await searchJson('min_queries=4')), [loop, report].sort());
  t.deepEqual(tokensOf(await searchJson(`min_queries=${ROWS + 1}`)), [loop]);
  t.is((await searchJson(`min_queries=${ROWS + 2}`)).total, 0);
  t.deepEqual(tokensOf(await searchJson('min_queries=4&n_plus_one=1')), [loop]);
  const invalid = await httpRequest(app.io.port, { path: `${ProfilerPaths.SEARCH}?min_queries=many`, headers: { Accept: 'application/json' } });
  t.is(invalid.status, 400);
  t.regex(invalid.body, /min_queries/);
});

test('the search page keeps the filters in its form and lists the query count with the N+1 mark', async (t) => {
  const { loop, joined, report } = app.tokens;
  // A browser's search is redirected to the results page of its filters.
  const search = await httpRequest(app.io.port, { path: `${ProfilerPaths.SEARCH}?n_plus_one=1&min_queries=2` });
  t.is(search.status, 302);
  const location = String(search.headers.location);
  t.is(location, resultsPath('', 'type=request&n_plus_one=1&min_queries=2'));
  const page = await httpRequest(app.io.port, { path: location });
  t.is(page.status, 200);
  t.true(page.body.includes(`data-token="${loop}"`));
  t.false(page.body.includes(`data-token="${joined}"`));
  t.false(page.body.includes(`data-token="${report}"`));
  t.regex(page.body, /<input type="checkbox" name="n_plus_one" value="1" checked/);
  t.regex(page.body, /<input name="min_queries" value="2"/);
  t.regex(page.body, new RegExp(`<td class="queries" data-queries="${ROWS + 1}">${ROWS + 1} <span class="empty">[^<]+</span> <span class="n-plus-one"[^>]*>N\\+1</span></td>`));
  const all = await httpRequest(app.io.port, { path: resultsPath('', '') });
  t.regex(all.body, /<td class="queries" data-queries="4">4 <span class="empty">[^<]+<\/span><\/td>/, 'four queries of four shapes have no mark');
  t.regex(all.body, /<th>Queries<\/th>/);
});

test('the compare page shows the queries, HTTP calls and Redis commands of both profiles side by side', async (t) => {
  const { loop, joined } = app.tokens;
  const page = await httpRequest(app.io.port, { path: comparePath(joined, loop) });
  t.is(page.status, 200);
  const row = (name: string): string => new RegExp(`<tr data-name="${name}"[^\\n]*</tr>`).exec(page.body)?.[0] ?? `(no row ${name})`;
  t.regex(row('SQL queries'), new RegExp(`data-a="1" data-b="${ROWS + 1}"><td class="mono">SQL queries</td><td>1</td><td>${ROWS + 1}</td><td class="diff slower">\\+${ROWS} \\(\\+${ROWS * 100} %\\)</td>`));
  t.regex(row('N\\+1 query shapes'), /<td>0<\/td><td>1<\/td><td class="diff slower">\+1<\/td>/);
  t.regex(row('HTTP calls'), /<td>1<\/td><td>2<\/td><td class="diff slower">\+1 \(\+100 %\)<\/td>/);
  t.regex(row('Redis commands'), /<td>3<\/td><td>1<\/td><td class="diff faster">−2 \(-66.7 %\)<\/td>/);
  for (const name of ['Query time', 'HTTP time', 'Redis time']) t.regex(row(name), /<td>[\d.]+ m?s<\/td><td>[\d.]+ m?s<\/td>/, name);
});
