import test from 'ava';
import { ROWS, startQueryLoopApp, type QueryLoopApp } from '../../app-io/query-loop-app';
import { runLoupe, runMain, tableRows } from '../../../cli/run-loupe';

// What the CLI shows of the application's own I/O, read from profiles of requests that ran real
// SQL on PostgreSQL, real Redis commands and real HTTP calls.

let app: QueryLoopApp;
let env: Record<string, string>;

test.before(async () => {
  app = await startQueryLoopApp();
  env = { REDIS_PREFIX: app.prefix };
});

test.after.always(async () => {
  await app?.close();
});

test('profiler:list --n-plus-one (through the process) lists only the request that ran a query in a loop, its queries marked', async (t) => {
  const run = await runLoupe(['profiler:list', '--n-plus-one'], env);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(
    tableRows(run.stdout).map((row) => [row.token, row.queries]),
    [[app.tokens.loop, `${ROWS + 1} N+1`]],
  );
  t.regex(run.stdout.split('\n')[0] ?? '', /Duration +Queries +Parent$/);
});

test('profiler:list --min-queries N lists the requests with at least N queries; without it, every request with its count', async (t) => {
  const { loop, joined, report } = app.tokens;
  const tokens = async (args: readonly string[]): Promise<string[]> => {
    const run = await runMain(['profiler:list', ...args], env);
    t.is(run.code, 0, run.stderr);
    return run.stdout === 'No profiles found.\n' ? [] : tableRows(run.stdout).map((row) => row.token);
  };
  t.deepEqual(await tokens(['--min-queries', '4']), [report, loop]);
  t.deepEqual(await tokens(['--min-queries', String(ROWS + 1)]), [loop]);
  t.deepEqual(await tokens(['--min-queries', String(ROWS + 2)]), []);
  t.deepEqual(await tokens(['--min-queries', '4', '--n-plus-one']), [loop]);
  const all = await runMain(['profiler:list'], env);
  t.deepEqual(
    tableRows(all.stdout).map((row) => [row.token, row.queries]),
    [
      [report, '4'],
      [joined, '1'],
      [loop, `${ROWS + 1} N+1`],
    ],
  );
  const json = await runMain(['profiler:list', '--n-plus-one', '--json'], env);
  t.like(JSON.parse(json.stdout), [{ token: loop, queries: ROWS + 1, nPlusOne: 1, httpCalls: 2, redisCommands: 1 }]);
  const invalid = await runMain(['profiler:list', '--min-queries', 'many'], env);
  t.is(invalid.code, 2);
  t.regex(invalid.stderr, /--min-queries expects an integer from 0 to/);
});

/** The totals' mark of calls over PROFILER_SLOW_CALL_MS (100 ms), which a loaded machine may give any call. */
const SLOW = '(?:; \\d+ slow \\(at least \\d+ ms\\))?';

test('profiler:show (through the process) shows the N+1 shape with where it ran, each query with its SQL and marks, the HTTP calls and the Redis commands', async (t) => {
  const run = await runLoupe(['profiler:show', app.tokens.loop], env);
  t.is(run.code, 0, run.stderr);
  const database = /^Database\n((?: {2}.*\n|\n)*?)\n(?=\S)/m.exec(run.stdout)?.[1] ?? '(no Database section)';
  t.regex(database, new RegExp(`^  ${ROWS + 1} queries in [\\d.]+ m?s; 1 N\\+1${SLOW}\\n`));
  t.regex(database, new RegExp(`^ {4}${ROWS}x +[\\d.]+ m?s +SELECT name FROM ${app.table} WHERE id = \\?\\n {8}from \\S*test/profiler/app-io/query-loop-app\\.ts:\\d+\\n`, 'm'));
  // The loop and its query are on one line of the fixture: the loop is named at the query's line.
  t.regex(database, new RegExp(`^ {8}from (\\S*test/profiler/app-io/query-loop-app\\.ts:\\d+)\\n {8}in the loop at \\1(?: \\(.*\\))?\\n {8}batched: SELECT name FROM ${app.table} WHERE id = ANY\\(\\$1\\)  \\(one query for the ${ROWS} values of id: ${ROWS - 1} round trips fewer\\)\\n`, 'm'));
  t.regex(database, new RegExp(`^ {4}#1 +[\\d.]+ m?s +pg test +${ROWS} rows +at \\S*test/profiler/app-io/query-loop-app\\.ts:\\d+`, 'm'));
  t.regex(database, new RegExp(`^ {8}SELECT id FROM ${app.table} ORDER BY id$`, 'm'));
  t.regex(database, new RegExp(`^ {4}#2 +[\\d.]+ m?s +pg test +\\[N\\+1\\] +1 row .*\\n {8}SELECT name FROM ${app.table} WHERE id = \\$1$`, 'm'));
  t.is(database.match(/\[N\+1\]/g)?.length, ROWS);
  t.regex(run.stdout, new RegExp(`^HTTP calls\\n {2}2 calls in [\\d.]+ m?s; 1 answered 4xx${SLOW.replace('; ', ', ')}\\n {2}GET http://127\\.0\\.0\\.1:\\d+/json +200 .*\\n(?: {8}called from .*\\n)* {2}GET http://127\\.0\\.0\\.1:\\d+/status/404 +404 `, 'm'));
  t.regex(run.stdout, new RegExp(`^Redis\\n {2}1 command in [\\d.]+ m?s${SLOW}\\n {2}GET loupe-test-io:loupe_io_\\w+ +[\\d.]+ m?s`, 'm'));
  t.false(run.stdout.includes('Other collectors'), 'the I/O collectors have sections of their own');
});

test('profiler:diff (through the process) puts the queries, HTTP calls and Redis commands of both side by side', async (t) => {
  const { loop, joined } = app.tokens;
  const run = await runLoupe(['profiler:diff', joined, loop], env);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /^The application's I\/O\nName +A +B +B - A$/m);
  t.regex(run.stdout, new RegExp(`^SQL queries +1 +${ROWS + 1} +\\+${ROWS} \\(\\+${ROWS * 100} %\\)$`, 'm'));
  t.regex(run.stdout, /^N\+1 query shapes +0 +1 +\+1$/m);
  t.regex(run.stdout, /^HTTP calls +1 +2 +\+1 \(\+100 %\)$/m);
  t.regex(run.stdout, /^Redis commands +3 +1 +-2 \(-66\.7 %\)$/m);
  for (const name of ['Query time', 'HTTP time', 'Redis time']) t.regex(run.stdout, new RegExp(`^${name} +[\\d.]+ m?s +[\\d.]+ m?s +[+\\-±]`, 'm'), name);
  const json = await runMain(['profiler:diff', joined, loop, '--json'], env);
  t.like(JSON.parse(json.stdout), { io: [{ name: 'SQL queries', a: 1, b: ROWS + 1, diff: ROWS, unit: 'count' }] });
});
