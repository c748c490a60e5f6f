import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { profiledRequest } from '../../app-io/io-app';
import { ROWS, SLOW_MS, startBudgetApp, type BudgetApp } from '../../budget/budget-app';
import { runLoupe, runMain } from '../../../cli/run-loupe';

// `loupe profiler:check` on the profiles a debug server stored for requests that ran real SQL on
// PostgreSQL and a real HTTP call: one route per way of going over a budget.

const ROUTES = ['clean', 'loop', 'duplicate', 'failing', 'slow'] as const;
type RouteName = (typeof ROUTES)[number];

let app: BudgetApp;
let env: Record<string, string>;
const tokens = {} as Record<RouteName, string>;

const APP_FILE = path.join(__dirname, '..', '..', 'budget', 'budget-app.ts');

/** `…/budget-app.ts:LINE` of the first line of the app that contains `text`: where the profiler must say a call was made. */
function appLine(text: string): string {
  const file = APP_FILE;
  const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text));
  if (index === -1) throw new Error(`budget-app.ts has no line with ${text}`);
  return `${file}:${index + 1}`;
}

/** The rows of the excesses table: its cells under the header and the rule. */
function rows(stdout: string): string[][] {
  return stdout
    .trimEnd()
    .split('\n')
    .slice(2)
    .filter((line) => line !== '')
    .map((line) => line.split(/\s{2,}/));
}

test.before(async () => {
  app = await startBudgetApp();
  env = { REDIS_PREFIX: app.prefix };
  for (const route of ROUTES) tokens[route] = (await profiledRequest(app.io, { path: `/${route}` })).profile.token;
});

test.after.always(async () => {
  await app?.close();
});

test('profiler:check (through the process) exits 0 and says so when every profile of the route is within budget', async (t) => {
  const run = await runLoupe(['profiler:check', '--route', 'clean', '--max-queries', '1', '--no-n-plus-one', '--no-duplicates', '--no-failed-calls'], env);
  t.is(run.code, 0, run.stderr);
  t.is(run.stdout, '');
  t.is(run.stderr, '1 profile of the route "clean" within budget (at most 1 query, no N+1, no duplicate query, no failed call).\n');
});

test('profiler:check --no-n-plus-one (through the process) exits 1 listing the request that ran a query in a loop: token, route, the query and the line it ran from', async (t) => {
  const run = await runLoupe(['profiler:check', '--no-n-plus-one'], env);
  t.is(run.code, 1, run.stderr);
  t.regex(run.stdout.split('\n')[0] ?? '', /^Token +Route +Request +Over budget +Origin$/);
  t.deepEqual(rows(run.stdout), [[tokens.loop, 'loop', 'GET /loop', `N+1: SELECT name FROM ${app.table} WHERE id = ? run ${ROWS} times`, appLine('WHERE id = $1')]]);
  t.regex(run.stderr, /^1 of \d+ profiles over budget \(no N\+1\)\.\n$/);
});

test('profiler:check --no-duplicates lists the query run twice with the same parameters, not the loop whose parameters differ', async (t) => {
  const run = await runMain(['profiler:check', '--no-duplicates'], env);
  t.is(run.code, 1, run.stderr);
  t.deepEqual(rows(run.stdout), [[tokens.duplicate, 'duplicate', 'GET /duplicate', `duplicate: SELECT id, name FROM ${app.table} ORDER BY id run 2 times with the same parameters`, appLine('SELECT id, name FROM')]]);
});

test('profiler:check --max-queries N lists the requests over N with the lines their queries ran from, most first', async (t) => {
  const run = await runMain(['profiler:check', '--max-queries', '2'], env);
  t.is(run.code, 1, run.stderr);
  t.deepEqual(rows(run.stdout), [[tokens.loop, 'loop', 'GET /loop', `${ROWS + 1} queries, over the budget of 2`, `${appLine('WHERE id = $1')} (${ROWS}), ${appLine('SELECT id FROM')} (1)`]]);
  const within = await runMain(['profiler:check', '--max-queries', String(ROWS + 1)], env);
  t.is(within.code, 0, within.stdout);
});

test('profiler:check --no-failed-calls lists the SQL error and the HTTP call answered 502, each with its line', async (t) => {
  const run = await runMain(['profiler:check', '--no-failed-calls'], env);
  t.is(run.code, 1, run.stderr);
  const listed = rows(run.stdout);
  t.is(listed.length, 2, run.stdout);
  t.deepEqual(listed[0]?.slice(0, 3), [tokens.failing, 'failing', 'GET /failing']);
  t.regex(listed[0]?.[3] ?? '', new RegExp(`^failed SQL query SELECT \\* FROM ${app.table}_missing: relation "${app.table}_missing" does not exist$`));
  t.is(listed[0]?.[4], appLine('_missing`'));
  t.regex(listed[1]?.[3] ?? '', /^failed HTTP call GET http:\/\/127\.0\.0\.1:\d+\/status\/502: 502$/);
  t.is(listed[1]?.[4], appLine('/status/502'));
});

test('profiler:check --max-duration-ms N lists the request that took longer, and --json gives the same as an array', async (t) => {
  // Half a second short of the sleep: any other route of a loaded machine stays well below.
  const limit = String(SLOW_MS - 500);
  const run = await runMain(['profiler:check', '--max-duration-ms', limit], env);
  t.is(run.code, 1, run.stderr);
  const listed = rows(run.stdout);
  t.deepEqual(listed.map((row) => [row[0], row[1], row[4]]), [[tokens.slow, 'slow', '-']]);
  t.regex(listed[0]?.[3] ?? '', new RegExp(`^took \\d+(\\.\\d)? ms, over the budget of ${limit} ms$`));
  const json = await runMain(['profiler:check', '--max-duration-ms', limit, '--json'], env);
  t.is(json.code, 1);
  t.like(JSON.parse(json.stdout), [{ kind: 'duration', token: tokens.slow, route: 'slow', request: 'GET /slow', origin: '' }]);
  const clean = await runMain(['profiler:check', '--route', 'clean', '--max-duration-ms', limit], env);
  t.is(clean.code, 0, clean.stdout);
});

test('profiler:check --route NAME checks only that route, and exits 1 when no profile of it is stored, since nothing was checked', async (t) => {
  const loop = await runMain(['profiler:check', '--route', 'loop', '--no-duplicates', '--no-failed-calls'], env);
  t.is(loop.code, 0, loop.stdout);
  t.is(loop.stderr, '1 profile of the route "loop" within budget (no duplicate query, no failed call).\n');
  const clean = await runMain(['profiler:check', '--route', 'clean', '--no-n-plus-one'], env);
  t.is(clean.code, 0, clean.stdout);
  const none = await runMain(['profiler:check', '--route', 'nothing', '--no-n-plus-one'], env);
  t.is(none.code, 1);
  t.regex(none.stderr, new RegExp(`^No profile of the route "nothing" is stored under the prefix "${app.prefix}": nothing was checked\\.`));
});

test('profiler:check --since DURATION checks only the requests of that window', async (t) => {
  const over = await runMain(['profiler:check', '--since', '1h', '--no-n-plus-one'], env);
  t.is(over.code, 1, over.stderr);
  // Past the requests of the setup, then one within budget, of no route (the other tests count the routes' profiles): the
  // only one of a window of whole seconds that starts at least half a second before it and at most 1.5 s before, so
  // after every request of the setup, 2.5 s older.
  await sleep(2500);
  const before = Date.now();
  const fresh = await profiledRequest(app.io, { path: '/nowhere' });
  const since = (): string => `${Math.ceil((Date.now() - before + 500) / 1000)}s`;
  const window = since();
  const run = await runMain(['profiler:check', '--since', window, '--no-n-plus-one', '--json'], env);
  t.is(run.code, 0, run.stdout);
  t.is(run.stdout, '[]\n');
  // The 404 and its error page's sub-request: a sub-request's queries are checked as well.
  t.is(run.stderr, `2 profiles of the last ${window} within budget (no N+1).\n`);
  const all = await runMain(['profiler:check', '--since', since(), '--max-duration-ms', '0', '--json'], env);
  t.is(all.code, 1);
  const listed = (JSON.parse(all.stdout) as { token: string }[]).map((violation) => violation.token);
  t.deepEqual(listed.sort(), [fresh.profile.token, ...fresh.profile.children].sort());
  t.is(fresh.profile.children.length, 1);
});

test('profiler:check without a budget, or with a --since it cannot read, is a usage error (exit code 2)', async (t) => {
  const none = await runMain(['profiler:check'], env);
  t.is(none.code, 2);
  t.regex(none.stderr, /^profiler:check needs a budget: --max-queries N, --no-n-plus-one/);
  const since = await runMain(['profiler:check', '--since', '10 minutes', '--no-n-plus-one'], env);
  t.is(since.code, 2);
  t.regex(since.stderr, /--since expects a duration such as 30s, 10m, 2h or 1d, got "10 minutes"/);
  const count = await runMain(['profiler:check', '--max-queries', '-1'], env);
  t.is(count.code, 2);
});
