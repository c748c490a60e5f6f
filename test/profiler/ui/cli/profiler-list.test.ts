import test from 'ava';
import { startTestServer, type TestServer } from '../../../helpers/test-server';
import { profileSampleRequests } from './profile-requests';
import { runLoupe, runMain, tableRows } from '../../../cli/run-loupe';

let server: TestServer;
let env: Record<string, string>;
let token = { config: '', hello: '', post: '' };

test.before(async () => {
  server = await startTestServer();
  env = { REDIS_PREFIX: server.config.redis.prefix };
  token = await profileSampleRequests(server);
});

test.after.always(async () => {
  await server?.close();
});

test('profiler:list --sub-requests (through the process) shows every request newest first, with status, method, URL, IP, time, duration, queries and parent', async (t) => {
  const run = await runLoupe(['profiler:list', '--sub-requests'], env);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /^Token\s+Status\s+Method\s+URL\s+IP\s+Time\s+Duration\s+Queries\s+Parent\n/);
  // The test server's routes run no SQL: every row counts none.
  t.true(tableRows(run.stdout).every((row) => row.queries === '0'), run.stdout);
  t.true(tableRows(run.stdout).every((row) => /^\d+\.\d+ m?s$/.test(row.duration)), run.stdout);
  t.true(run.stderr.endsWith('Rows 1-5 of 5, page 1 of 1.\n'), run.stderr);
  const rows = tableRows(run.stdout);
  const mains = rows.filter((row) => row.parent === '-');
  t.deepEqual(mains.map((row) => [row.token, row.status, row.method]), [
    [token.post, '405', 'POST'],
    [token.hello, '200', 'GET'],
    [token.config, '404', 'GET'],
  ]);
  t.deepEqual(mains.map((row) => new URL(row.url).pathname), ['/hello/anna', '/hello/anna', '/config.yaml']);
  // The error pages of the 404 and the 405 are sub-requests, listed under their parent's token.
  t.deepEqual(rows.filter((row) => row.parent !== '-').map((row) => [row.parent, row.status]), [[token.post, '405'], [token.config, '404']]);
  const times = rows.map((row) => Date.parse(row.time));
  t.deepEqual(times, [...times].sort((a, b) => b - a));
  t.true(rows.every((row) => row.ip === '127.0.0.1' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(row.time)));
});

test('profiler:list --method POST keeps the POST only', async (t) => {
  const run = await runMain(['profiler:list', '--method', 'POST'], env);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(tableRows(run.stdout).map((row) => row.token), [token.post]);
});

test('profiler:list --status 404 --sub-requests keeps the 404 and its error sub-request', async (t) => {
  const run = await runMain(['profiler:list', '--status', '404', '--sub-requests'], env);
  t.is(run.code, 0, run.stderr);
  const rows = tableRows(run.stdout);
  t.deepEqual(rows.map((row) => row.status), ['404', '404']);
  t.deepEqual(rows.map((row) => row.parent), [token.config, '-']);
  t.is(rows[1]?.token, token.config);
});

test('profiler:list --url hello keeps the URLs containing "hello"', async (t) => {
  const run = await runMain(['profiler:list', '--url', 'hello', '--sub-requests'], env);
  t.is(run.code, 0, run.stderr);
  const rows = tableRows(run.stdout);
  t.is(rows.length, 3);
  t.true(rows.every((row) => row.url.endsWith('/hello/anna')));
  t.false(rows.some((row) => row.token === token.config));
});

test('profiler:list --limit and --ip narrow the rows; nothing found says so', async (t) => {
  const newest = await runMain(['profiler:list', '--ip', '127.0.0.1', '--limit', '2'], env);
  t.is(newest.code, 0, newest.stderr);
  t.is(tableRows(newest.stdout).length, 2);
  t.deepEqual(tableRows(newest.stdout).map((row) => row.token), [token.post, token.hello]);
  const none = await runMain(['profiler:list', '--ip', '10.9.8.7'], env);
  t.is(none.code, 0, none.stderr);
  t.is(none.stdout, 'No profiles found.\n');
});

test('profiler:list --json prints the rows the storage finds', async (t) => {
  const run = await runMain(['profiler:list', '--json'], env);
  t.is(run.code, 0, run.stderr);
  const rows = JSON.parse(run.stdout) as { token: string; statusCode: number }[];
  t.deepEqual(rows, await server.profiler?.storage.find({ limit: 20, mainRequestsOnly: true, hideFavicon: true }));
  t.deepEqual(rows.filter((row) => Object.values(token).includes(row.token)).map((row) => row.statusCode), [405, 200, 404]);
});

test('--prefix overrides REDIS_PREFIX', async (t) => {
  const elsewhere = { REDIS_PREFIX: `${server.config.redis.prefix}elsewhere:` };
  t.is((await runMain(['profiler:list'], elsewhere)).stdout, 'No profiles found.\n');
  const run = await runMain(['--prefix', server.config.redis.prefix, 'profiler:list', '--method', 'POST'], elsewhere);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(tableRows(run.stdout).map((row) => row.token), [token.post]);
});

for (const args of [['--limit', '0'], ['--limit', 'many'], ['--status', 'abc'], ['--status', '6xx'], ['--sort', 'size'], ['--order', 'up'], ['--page', '0'], ['--method'], ['extra']]) {
  test(`profiler:list ${args.join(' ')} is a usage error`, async (t) => {
    const run = await runMain(['profiler:list', ...args], env);
    t.is(run.code, 2);
    t.is(run.stdout, '');
    t.regex(run.stderr, /Usage: loupe profiler:list/);
  });
}

test('profiler:list reads only REDIS_URL and REDIS_PREFIX: it works with APP_ENV=prod and no APP_SECRET', async (t) => {
  const run = await runMain(['profiler:list', '--limit', '1'], { ...env, APP_ENV: 'prod', APP_SECRET: '', APP_LOCALES: 'xx', APP_DEFAULT_LOCALE: 'yy' });
  t.is(run.code, 0, run.stderr);
  t.is(tableRows(run.stdout).length, 1);
});

test('profiler:list hides error sub-requests by default; --status 4xx is a status class', async (t) => {
  const run = await runMain(['profiler:list'], env);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(tableRows(run.stdout).map((row) => row.token), [token.post, token.hello, token.config]);
  const classes = await runMain(['profiler:list', '--status', '4xx'], env);
  t.deepEqual(tableRows(classes.stdout).map((row) => row.status), ['405', '404']);
  const withSubs = await runMain(['profiler:list', '--status', '4XX', '--sub-requests'], env);
  t.is(tableRows(withSubs.stdout).length, 4);
});

test('profiler:list --sort duration --order asc, and pages: --limit 2 --page 2, the count on stderr', async (t) => {
  const slowest = await runMain(['profiler:list', '--sort', 'duration', '--json'], env);
  const durations = (JSON.parse(slowest.stdout) as { duration: number }[]).map((row) => row.duration);
  t.deepEqual(durations, [...durations].sort((a, b) => b - a));
  const fastest = await runMain(['profiler:list', '--sort', 'duration', '--order', 'asc', '--json'], env);
  t.deepEqual((JSON.parse(fastest.stdout) as { duration: number }[]).map((row) => row.duration), [...durations].reverse());
  const first = await runMain(['profiler:list', '--limit', '2'], env);
  t.is(first.stderr, `Profiles under the prefix "${server.config.redis.prefix}" (REDIS_PREFIX).\nRows 1-2 of 3, page 1 of 2; --page 2 shows the next.\n`);
  const second = await runMain(['profiler:list', '--limit', '2', '--page', '2'], env);
  t.deepEqual(tableRows(second.stdout).map((row) => row.token), [token.config]);
  t.true(second.stderr.endsWith('Rows 3-3 of 3, page 2 of 2.\n'), second.stderr);
  const oldest = await runMain(['profiler:list', '--order', 'asc', '--limit', '1'], env);
  t.deepEqual(tableRows(oldest.stdout).map((row) => row.token), [token.config]);
});

test('profiler:list says which prefix it lists: the default one is shared by every application, and it says how to narrow it', async (t) => {
  const shared = await runMain(['profiler:list', '--limit', '1', '--url', `/nowhere-${server.config.redis.prefix}`], { REDIS_PREFIX: undefined });
  t.is(shared.code, 0, shared.stderr);
  t.regex(shared.stderr, /^Profiles under the default prefix "loupe:": every application on this Redis that sets no REDIS_PREFIX stores its profiles there\. --prefix PREFIX \(or REDIS_PREFIX\) lists one application's/);
  const own = await runMain(['--prefix', server.config.redis.prefix, 'profiler:list', '--json'], { REDIS_PREFIX: undefined });
  t.true(own.stderr.startsWith(`Profiles under the prefix "${server.config.redis.prefix}" (--prefix).\n`), own.stderr);
});
