import test from 'ava';
import { formatComparison } from '../../../../src/profiler/ui/cli/format/format-comparison';
import { timingDiff } from '../../../../src/profiler/ui/compare-profiles';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { profileRequests } from './profile-requests';
import { runLoupe, runMain } from '../../../cli/run-loupe';

let server: TestServer;
let env: Record<string, string>;
let fast = '';
let slow = '';

test.before(async () => {
  server = await startTestServer();
  env = { REDIS_PREFIX: server.config.redis.prefix };
  // A first request runs cold code: the two compared come after it.
  [, fast = '', slow = ''] = await profileRequests(server, [{ path: '/hello/warm-up' }, { path: '/slow?ms=0' }, { path: '/slow?ms=250' }]);
});

test.after.always(async () => {
  await server?.close();
});

test('profiler:diff A B (through the process) prints both sides, the total and each state with the difference in ms and %', async (t) => {
  const run = await runLoupe(['profiler:diff', fast, slow], env);
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.startsWith(`Compare ${fast} (A) with ${slow} (B)\n`));
  t.regex(run.stdout, /^Status +200 +200$/m);
  t.regex(run.stdout, /^Route +slow +slow$/m);
  t.regex(run.stdout, /^B took \+[\d.]+ m?s \(\+[\d.]+ %\) against A\.$/m);
  t.regex(run.stdout, /^kernel\.request +[\d.]+ ms +[\d.]+ ms +[+\-±][\d.]+ m?s( \([+-]?[\d.]+ %\))?$/m);
  t.true(run.stdout.includes('Listeners whose time changed most'));
});

test('profiler:diff shows control characters of stored values escaped', (t) => {
  const side = { token: 'a1b2c3', method: 'GET', url: 'http://h/\u001b]0;pwned\u0007', statusCode: 200, route: 'r\u009b2J', time: 0, duration: 1 };
  const text = formatComparison({ a: side, b: { ...side, token: 'd4e5f6' }, total: timingDiff('total', 1, 2), states: [timingDiff('kernel.\u001b[2J', 1, 2)], listeners: [], io: [{ ...timingDiff('SQL queries', 2, 5), unit: 'count' }], queryShapes: { added: ['SELECT \u001b[2J FROM t'], removed: [] } });
  t.notRegex(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  t.true(text.includes('http://h/\\x1b]0;pwned\\x07'));
  t.true(text.includes('r\\x9b2J'));
  t.true(text.includes('kernel.\\x1b[2J'));
  t.true(text.includes('Query shapes added (1)\n  SELECT \\x1b[2J FROM t\n'));
  t.true(text.includes('+1.00 ms (+100 %)'));
  // A count is a number, not milliseconds.
  t.regex(text, /^SQL queries +2 +5 +\+3 \(\+150 %\)$/m);
});

test('profiler:diff --json prints what the compare page answers as JSON', async (t) => {
  const run = await runMain(['profiler:diff', fast, slow, '--json'], env);
  t.is(run.code, 0, run.stderr);
  const comparison = JSON.parse(run.stdout) as { a: { token: string }; b: { token: string }; total: { diff: number } };
  t.is(comparison.a.token, fast);
  t.is(comparison.b.token, slow);
  t.true(comparison.total.diff >= 150);
});

test('profiler:diff with an unknown token fails with exit code 1 and names it; a missing token is a usage error', async (t) => {
  const unknown = await runMain(['profiler:diff', fast, 'abcdef'], env);
  t.is(unknown.code, 1);
  t.is(unknown.stderr, 'Token "abcdef" not found.\n');
  t.is(unknown.stdout, '');
  const usage = await runMain(['profiler:diff'], env);
  t.is(usage.code, 2);
  t.regex(usage.stderr, /^profiler:diff needs a token B \(compared with the request before it of the same route\), or two tokens A and B\.\n\nUsage: loupe profiler:diff A B/);
});

// Serial, so before the concurrent tests: the slow request is still the latest.
test.serial('profiler:diff latest alone compares the newest request with the one before it of the same route', async (t) => {
  const run = await runMain(['profiler:diff', 'latest'], env);
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.startsWith(`Compare ${fast} (A) with ${slow} (B)\n`), run.stdout);
  const one = await runMain(['profiler:diff', slow, '--json'], env);
  t.is(one.code, 0, one.stderr);
  t.like(JSON.parse(one.stdout), { a: { token: fast }, b: { token: slow } });
});

test('profiler:diff with one token and no earlier request of its route says so and how to name two', async (t) => {
  const [first = ''] = await profileRequests(server, [{ path: '/nowhere-diff-once' }]);
  const run = await runMain(['profiler:diff', first], env);
  t.is(run.code, 1);
  t.regex(run.stderr, /^No earlier profile of the route of GET \S+ to compare [0-9a-f]{6} with: name two tokens, profiler:diff A B\.\n$/);
});
