import test from 'ava';
import { execFile } from 'node:child_process';
import { AssertionError } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expectProfile, type ProfileBudget } from '../../../src/profiler/testing';
import { ROWS, startBudgetApp, type BudgetApp } from '../budget/budget-app';
import { TYPESCRIPT } from '../../helpers/typescript-loader';

// `loupe-kernel/testing` asserting budgets on the profiles a debug server stored for real HTTP
// requests that ran real SQL on PostgreSQL, read from the real Redis the server writes to.

const ROOT = path.resolve(__dirname, '..', '..', '..');
const APP_FILE = path.join(__dirname, '..', 'budget', 'budget-app.ts');
const BUDGET: ProfileBudget = { maxQueries: 3, nPlusOne: false, duplicates: false, failedCalls: false };
const run = promisify(execFile);

let app: BudgetApp;

/** `…/budget-app.ts:LINE` of the first line of the app that contains `text`. */
function appLine(text: string): string {
  const index = readFileSync(APP_FILE, 'utf8').split('\n').findIndex((line) => line.includes(text));
  if (index === -1) throw new Error(`budget-app.ts has no line with ${text}`);
  return `${APP_FILE}:${index + 1}`;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.before(async () => {
  app = await startBudgetApp();
});

test.after.always(async () => {
  await app?.close();
});

test('expectProfile passes for a request within budget, reading its profile from the Redis and prefix the server writes to, and answers it', async (t) => {
  const response = await fetch(`${app.baseUrl}/clean`);
  const profile = await expectProfile(response, BUDGET, { prefix: app.prefix });
  t.is(profile.token, response.headers.get('x-debug-token') ?? '(no token)');
  t.is(profile.url, `${app.baseUrl}/clean`);
});

test('expectProfile fails an N+1 with an AssertionError listing the excesses with their lines, then every query with its marks and origin', async (t) => {
  const response = await fetch(`${app.baseUrl}/loop`);
  const token = response.headers.get('x-debug-token') ?? '';
  const error = await t.throwsAsync(expectProfile(response, BUDGET, { prefix: app.prefix }), { instanceOf: AssertionError });
  const message = error?.message ?? '';
  const loopLine = escape(appLine('WHERE id = $1'));
  t.regex(message, new RegExp(`^Profile ${token} \\(GET /loop, route "loop"\\) is over budget \\(at most 3 queries, no N\\+1, no duplicate query, no failed call\\):\\n`));
  t.regex(message, new RegExp(`^  - ${ROWS + 1} queries, over the budget of 3\\n {6}at ${loopLine} \\(${ROWS}\\), ${escape(appLine('SELECT id FROM'))} \\(1\\)$`, 'm'));
  t.regex(message, new RegExp(`^  - N\\+1: SELECT name FROM ${app.table} WHERE id = \\? run ${ROWS} times\\n {6}at ${loopLine}$`, 'm'));
  t.regex(message, new RegExp(`^Database\\n  ${ROWS + 1} queries in `, 'm'));
  // A query over PROFILER_SLOW_CALL_MS (100 ms), which a loaded machine may give any, is marked slow.
  t.regex(message, new RegExp(`^ {4}#1 +[\\d.]+ m?s +pg test +(?:\\[slow\\] +)?${ROWS} rows +at ${escape(appLine('SELECT id FROM'))}\\n {8}SELECT id FROM ${app.table} ORDER BY id$`, 'm'));
  t.is(message.match(new RegExp(`\\[N\\+1\\] +(?:\\[slow\\] +)?1 row +at ${loopLine}\\n {8}SELECT name FROM ${app.table} WHERE id = \\$1\\n`, 'g'))?.length, ROWS, message);
  t.is(error?.operator, 'expectProfile');
});

test('expectProfile with failedCalls: false fails on an SQL error and an HTTP call answered 502, listing the HTTP calls too', async (t) => {
  const response = await fetch(`${app.baseUrl}/failing`);
  const error = await t.throwsAsync(expectProfile(response, { failedCalls: false }, { prefix: app.prefix }), { instanceOf: AssertionError });
  const message = error?.message ?? '';
  t.regex(message, new RegExp(`^  - failed SQL query SELECT \\* FROM ${app.table}_missing: relation "${app.table}_missing" does not exist\\n {6}at ${escape(appLine('_missing`'))}$`, 'm'));
  t.regex(message, new RegExp(`^  - failed HTTP call GET http://127\\.0\\.0\\.1:\\d+/status/502: 502\\n {6}at ${escape(appLine('/status/502'))}$`, 'm'));
  t.regex(message, /^HTTP calls\n {2}1 call in .*\n {2}GET http:\/\/127\.0\.0\.1:\d+\/status\/502 +502 /m);
  // The same request passes a budget that does not forbid failed calls.
  await t.notThrowsAsync(expectProfile(response, { maxQueries: 1, nPlusOne: false }, { prefix: app.prefix }));
});

test("expectProfile reads an inject result's profile from the application's own profiler", async (t) => {
  const clean = await app.io.app.inject({ url: '/clean' });
  const profile = await expectProfile(clean, BUDGET, { app: app.io.app });
  t.is(profile.token, String(clean.headers['x-debug-token']));
  const duplicate = await app.io.app.inject({ url: '/duplicate' });
  const error = await t.throwsAsync(expectProfile(duplicate, BUDGET, { app: app.io.app }), { instanceOf: AssertionError });
  t.regex(error?.message ?? '', new RegExp(`^  - duplicate: SELECT id, name FROM ${app.table} ORDER BY id run 2 times with the same parameters\\n {6}at ${escape(appLine('SELECT id, name FROM'))}$`, 'm'));
});

test('expectProfile fails saying why when the response has no X-Debug-Token, or no profile is stored under the token in time', async (t) => {
  const untokened = await t.throwsAsync(expectProfile({ headers: { 'content-type': 'text/plain' } }, BUDGET, { prefix: app.prefix }), { instanceOf: AssertionError });
  t.regex(untokened?.message ?? '', /^The response has no X-Debug-Token header: /);
  const started = Date.now();
  const missing = await t.throwsAsync(expectProfile('zzzzzz', BUDGET, { prefix: app.prefix, timeoutMs: 300 }), { instanceOf: AssertionError });
  t.regex(missing?.message ?? '', new RegExp(`^No profile zzzzzz was stored under the prefix "${escape(app.prefix)}" of redis://\\S+ within 300 ms: `));
  t.true(Date.now() - started >= 300);
  await t.throwsAsync(expectProfile('zzzzzz', { maxQueries: Number.NaN }), { instanceOf: TypeError, message: /maxQueries must be a number of 0 or more/ });
});

test('under node --test (a child process), a request within budget passes and an N+1 fails with the queries and their origins in the report', async (t) => {
  const fixture = path.join(ROOT, 'test', 'fixtures', 'expect-profile-under-node-test.ts');
  const result = await run(process.execPath, [...TYPESCRIPT, '--test', '--test-reporter=spec', fixture], {
    cwd: ROOT,
    env: { ...process.env, BUDGET_APP_URL: app.baseUrl, REDIS_PREFIX: app.prefix },
    timeout: 60_000,
  }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, output: `${error.stdout ?? ''}${error.stderr ?? ''}` }),
  );
  t.is(result.code, 1, result.output);
  t.regex(result.output, /✔ the clean route is within budget/);
  t.regex(result.output, /✖ the loop route is within budget/);
  t.regex(result.output, /AssertionError/);
  t.regex(result.output, new RegExp(`N\\+1: SELECT name FROM ${app.table} WHERE id = \\? run ${ROWS} times\\n\\s+at ${escape(appLine('WHERE id = $1'))}`));
  t.regex(result.output, /ℹ pass 1\n.*ℹ fail 1/s);
});
