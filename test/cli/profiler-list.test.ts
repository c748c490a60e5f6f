import test from 'ava';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { profileSampleRequests } from './profile-requests';
import { runLoupe, tableRows } from './run-loupe';

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

test('profiler:list shows every request newest first, with status, method, URL, IP, time and parent', async (t) => {
  const run = await runLoupe(['profiler:list'], env);
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /^Token\s+Status\s+Method\s+URL\s+IP\s+Time\s+Parent\n/);
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
  const run = await runLoupe(['profiler:list', '--method', 'POST'], env);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(tableRows(run.stdout).map((row) => row.token), [token.post]);
});

test('profiler:list --status 404 keeps the 404 and its error sub-request', async (t) => {
  const run = await runLoupe(['profiler:list', '--status', '404'], env);
  t.is(run.code, 0, run.stderr);
  const rows = tableRows(run.stdout);
  t.deepEqual(rows.map((row) => row.status), ['404', '404']);
  t.deepEqual(rows.map((row) => row.parent), [token.config, '-']);
  t.is(rows[1]?.token, token.config);
});

test('profiler:list --url hello keeps the URLs containing "hello"', async (t) => {
  const run = await runLoupe(['profiler:list', '--url', 'hello'], env);
  t.is(run.code, 0, run.stderr);
  const rows = tableRows(run.stdout);
  t.is(rows.length, 3);
  t.true(rows.every((row) => row.url.endsWith('/hello/anna')));
  t.false(rows.some((row) => row.token === token.config));
});

test('profiler:list --limit and --ip narrow the rows; nothing found says so', async (t) => {
  const newest = await runLoupe(['profiler:list', '--ip', '127.0.0.1', '--limit', '2'], env);
  t.is(newest.code, 0, newest.stderr);
  t.is(tableRows(newest.stdout).length, 2);
  t.is(tableRows(newest.stdout)[1]?.token, token.post);
  const none = await runLoupe(['profiler:list', '--ip', '10.9.8.7'], env);
  t.is(none.code, 0, none.stderr);
  t.is(none.stdout, 'No profiles found.\n');
});

test('profiler:list --json prints the rows the storage finds', async (t) => {
  const run = await runLoupe(['profiler:list', '--json'], env);
  t.is(run.code, 0, run.stderr);
  const rows = JSON.parse(run.stdout) as { token: string; statusCode: number }[];
  t.deepEqual(rows, await server.profiler?.storage.find({ limit: 20 }));
  t.deepEqual(rows.filter((row) => Object.values(token).includes(row.token)).map((row) => row.statusCode), [405, 200, 404]);
});

test('--prefix overrides REDIS_PREFIX', async (t) => {
  const elsewhere = { REDIS_PREFIX: `${server.config.redis.prefix}elsewhere:` };
  t.is((await runLoupe(['profiler:list'], elsewhere)).stdout, 'No profiles found.\n');
  const run = await runLoupe(['--prefix', server.config.redis.prefix, 'profiler:list', '--method', 'POST'], elsewhere);
  t.is(run.code, 0, run.stderr);
  t.deepEqual(tableRows(run.stdout).map((row) => row.token), [token.post]);
});

for (const args of [['--limit', '0'], ['--limit', 'many'], ['--status', 'abc'], ['--method'], ['extra']]) {
  test(`profiler:list ${args.join(' ')} is a usage error`, async (t) => {
    const run = await runLoupe(['profiler:list', ...args], env);
    t.is(run.code, 2);
    t.is(run.stdout, '');
    t.regex(run.stderr, /Usage: loupe profiler:list/);
  });
}

test('profiler:list reads only REDIS_URL and REDIS_PREFIX: it works with APP_ENV=prod and no APP_SECRET', async (t) => {
  const run = await runLoupe(['profiler:list', '--limit', '1'], { ...env, APP_ENV: 'prod', APP_SECRET: '', APP_LOCALES: 'xx', APP_DEFAULT_LOCALE: 'yy' });
  t.is(run.code, 0, run.stderr);
  t.is(tableRows(run.stdout).length, 1);
});
