import test from 'ava';
import { httpRequest } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { profileRequests } from '../profiler/ui/cli/profile-requests';
import { runLoupe, runMain } from './run-loupe';

// What reaches the terminal from stored profiles: a value can carry escape sequences (route
// parameters are percent-decoded) and a row in Redis can be corrupted; the CLI shows both as text.

let server: TestServer;
let env: Record<string, string>;
let tokens: string[] = [];

/** Sets the window title to "pwned" (OSC 0, ended by BEL), then clears the screen (CSI 2J). */
const TITLE = '/hello/%1b]0;pwned%07';
const CLEAR = '/hello/x%1b[2J';
/** Any raw C0 control but the newline, DEL or C1 control. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A readable row whose stored values hold escape sequences (the URL of a route parameter is stored encoded). */
const PLANTED = { token: 'e5c001', parent: null, ip: '127.0.0.1', method: 'GET\u009b2J', url: 'http://127.0.0.1/\u001b]0;pwned\u0007\u001b[2J', time: Date.now() - 30_000, statusCode: 200 };

/** Rows planted in the search index, as a bug or a hand with redis-cli could leave them. */
const CORRUPTED: Readonly<Record<string, readonly [string, string]>> = {
  bad001: ['{"token": "bad001", "url": ', 'it is not JSON'],
  bad002: [JSON.stringify({ token: 'bad002', parent: null, ip: '127.0.0.1', method: 'GET', time: Date.now(), statusCode: 200 }), 'the field "url" is missing or not a string'],
  'bad\u001b[2J': ['[1, 2]', 'it is not a JSON object'],
};

test.before(async () => {
  server = await startTestServer();
  const { prefix } = server.config.redis;
  env = { REDIS_PREFIX: prefix };
  tokens = await profileRequests(server, [{ path: TITLE }, { path: CLEAR }]);
  // Older than the requests, so that the newest rows stay the readable ones.
  const time = Date.now() - 60_000;
  await server.redis.zadd(`${prefix}profiler:index`, PLANTED.time, PLANTED.token);
  await server.redis.hset(`${prefix}profiler:meta`, PLANTED.token, JSON.stringify(PLANTED));
  for (const [token, [row]] of Object.entries(CORRUPTED)) {
    await server.redis.zadd(`${prefix}profiler:index`, time, token);
    await server.redis.hset(`${prefix}profiler:meta`, token, row);
  }
});

test.after.always(async () => {
  await server?.close();
});

test('profiler:list shows escape sequences in stored values as text, and lists the rows it cannot read in their place', async (t) => {
  const run = await runMain(['profiler:list'], env);
  t.is(run.code, 0, run.stderr);
  t.notRegex(run.stdout, RAW_CONTROL);
  const lines = run.stdout.trimEnd().split('\n');
  t.regex(lines.find((line) => line.startsWith('e5c001 ')) ?? '', /^e5c001 +200 +GET\\x9b2J +http:\/\/127\.0\.0\.1\/\\x1b\]0;pwned\\x07\\x1b\[2J +127\.0\.0\.1 /);
  t.deepEqual(
    lines.filter((line) => line.startsWith('(unreadable')).sort(),
    ['(unreadable row bad001: it is not JSON)', '(unreadable row bad002: the field "url" is missing or not a string)', '(unreadable row bad\\x1b[2J: it is not a JSON object)'].sort(),
  );
  // Every readable row is listed, the requests' first (newest), the corrupted rows after them.
  const listed = lines.slice(2).map((line) => line.split(' ')[0]);
  t.deepEqual(listed.slice(0, 3).sort(), [...tokens, 'e5c001'].sort());
  t.is(listed.length, 6);
});

test('profiler:list --json keeps stdout an array of the readable rows, escaped as JSON; the unreadable ones go to stderr', async (t) => {
  const run = await runMain(['profiler:list', '--json'], env);
  t.is(run.code, 0, run.stderr);
  t.notRegex(run.stdout, RAW_CONTROL);
  t.true(run.stdout.includes('"GET\\u009b2J"'));
  const rows = JSON.parse(run.stdout) as { token: string; url: string }[];
  t.deepEqual(rows.map((row) => row.token).sort(), [...tokens, 'e5c001'].sort());
  t.deepEqual(rows.find((row) => row.token === 'e5c001'), PLANTED);
  t.notRegex(run.stderr, RAW_CONTROL);
  t.is(run.stderr.split('\n').filter((line) => line.startsWith('(unreadable row ')).length, 3);
});

test('profiler:show shows the percent-decoded route parameters escaped', async (t) => {
  for (const [token, name] of [[tokens[0], '\\x1b]0;pwned\\x07'], [tokens[1], 'x\\x1b[2J']] as const) {
    const run = await runLoupe(['profiler:show', token ?? ''], env);
    t.is(run.code, 0, run.stderr);
    t.notRegex(run.stdout, RAW_CONTROL);
    t.true(run.stdout.includes(`Params      _route=hello, _controller=hello.hello, name=${name}\n`), run.stdout);
  }
});

test('the panel\'s search leaves the corrupted rows out and still answers', async (t) => {
  const res = await httpRequest(server.port, { path: '/_profiler/search?limit=10', headers: { Accept: 'application/json' } });
  t.is(res.status, 200);
  const { results } = JSON.parse(res.body) as { results: { token: string }[] };
  t.deepEqual(results.map((row) => row.token).sort(), [...tokens, 'e5c001'].sort());
});
