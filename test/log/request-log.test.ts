import test, { type ExecutionContext } from 'ava';
import { httpRequest, rawRequest, type HttpResult } from '../helpers/http-client';
import { spawnServer, type SpawnedServer } from '../helpers/spawn-server';
import { testKeyPrefix } from '../helpers/test-redis';
import { deleteKeys } from '../helpers/test-server';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const LISTENING = /^Loupe listening on http:\/\/127\.0\.0\.1:\d+/;
/** What serve() changed in the demo's process, as its listening line ends (src/server/tune-process.ts). */
const TUNED = 'process tuned: V8 --no-allocation-site-pretenuring, uWS request heads up to 128 KiB';

interface Record {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** The demo in its own process with `env`; stopped, and its keys deleted, when the test ends. */
async function demo(t: ExecutionContext, env: Readonly<{ [name: string]: string }>): Promise<SpawnedServer> {
  const prefix = testKeyPrefix();
  const server = await spawnServer({ REDIS_PREFIX: prefix, ...env });
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await deleteKeys(REDIS_URL, prefix);
  });
  return server;
}

/** Polls the output until `found` holds (bounded), for the line written after the response. */
async function outputWhen(server: SpawnedServer, found: (output: string) => boolean): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    if (found(server.output())) return server.output();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`The expected log line never came. Output:\n${server.output()}`);
}

/** Every line of the output parsed as JSON: a line that is not JSON fails the test. */
function records(output: string): Record[] {
  return output
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record);
}

const requestLine = (all: readonly Record[], path: string): Record | undefined => all.find((record) => record['path'] === path);

function get(server: SpawnedServer, path: string): Promise<HttpResult> {
  return httpRequest(server.port, { path });
}

test.serial('LOG_FORMAT=json: the listening line, then one JSON line per request; a 5xx carries its stack, a 4xx its reason', async (t) => {
  const server = await demo(t, { LOG_FORMAT: 'json' });
  const home = await get(server, '/');
  const boom = await get(server, '/boom');
  const missing = await get(server, '/nope');
  const all = records(await outputWhen(server, (output) => output.includes('"path":"/nope"')));
  const [listening] = all;
  t.regex(String(listening?.msg), LISTENING);
  // serve() names what it changed in the process (src/server/tune-process.ts).
  t.true(String(listening?.msg).endsWith(`— profiler: http://127.0.0.1:${server.port}/_profiler/ (APP_ENV=test, debug on; ${TUNED})`));

  const ok = requestLine(all, '/');
  t.like(ok, { level: 30, method: 'GET', status: 200, token: home.headers['x-debug-token'], profile: `http://127.0.0.1:${server.port}/_profiler/${String(home.headers['x-debug-token'])}` });
  t.is(typeof ok?.['durationMs'], 'number');
  t.regex(String(ok?.msg), new RegExp(`^GET / 200 [0-9.]+ ms http://127\\.0\\.0\\.1:${server.port}/_profiler/[0-9a-f]{6}$`));

  const failed = requestLine(all, '/boom');
  t.like(failed, { level: 50, status: 500, token: boom.headers['x-debug-token'] });
  const err = failed?.['err'] as { type: string; message: string; stack: string };
  t.regex(err.message, /^Boom! This controller failed on purpose\./);
  t.regex(err.stack, /demo\/controllers\/boom-controller\.ts:\d+/);

  const notFound = requestLine(all, '/nope');
  t.like(notFound, { level: 40, status: 404, token: missing.headers['x-debug-token'] });
  t.regex(String(notFound?.['error']), /^NotFoundHttpError: No route found for "GET http:\/\/127\.0\.0\.1:\d+\/nope"/);
  t.is(notFound?.['err'], undefined);
});

test.serial('LOG_FORMAT=pretty: one readable line per request, the stack under a 5xx', async (t) => {
  const server = await demo(t, { LOG_FORMAT: 'pretty' });
  await get(server, '/');
  await get(server, '/boom');
  await get(server, '/nope');
  const output = await outputWhen(server, (text) => text.includes('GET /nope'));
  const profile = `http://127\\.0\\.0\\.1:${server.port}/_profiler/[0-9a-f]{6}`;
  t.regex(output, /^\[[\d:.]+\] INFO: Loupe listening on http:\/\/127\.0\.0\.1:\d+ — profiler: http:\/\/127\.0\.0\.1:\d+\/_profiler\/ \(APP_ENV=test, debug on; process tuned: [^()]+\)$/m);
  t.regex(output, new RegExp(`^\\[[\\d:.]+\\] INFO: GET / 200 [0-9.]+ ms ${profile}$`, 'm'));
  t.regex(output, new RegExp(`^\\[[\\d:.]+\\] ERROR: GET /boom 500 [0-9.]+ ms ${profile}\\n\\s+err: \\{[^]*Boom! This controller failed on purpose\\.[^]*boom-controller\\.ts:\\d+`, 'm'));
  t.regex(output, new RegExp(`^\\[[\\d:.]+\\] WARN: GET /nope 404 [0-9.]+ ms ${profile}\\n\\s+error: "NotFoundHttpError: No route found`, 'm'));
  // The request line's fields are in its message: they are not repeated under it.
  t.notRegex(output, /^\s+(method|path|status|durationMs|token|profile): /m);
});

test.serial('LOG_LEVEL=warn hides the lines of successful requests; without debug a line has no profile', async (t) => {
  const server = await demo(t, { LOG_FORMAT: 'json', LOG_LEVEL: 'warn', APP_ENV: 'prod', APP_SECRET: 'a-secret-for-this-test' });
  t.is((await get(server, '/')).status, 200);
  t.is((await get(server, '/nope')).status, 404);
  const all = records(await outputWhen(server, (output) => output.includes('"path":"/nope"')));
  // Under Node 20 a warning about its uWS comes first (src/server/runtime-warning.ts).
  t.regex(String(all.find((record) => String(record.msg).startsWith('Loupe listening'))?.msg), /^Loupe listening on http:\/\/127\.0\.0\.1:\d+ \(APP_ENV=prod, debug off; process tuned: [^()]+\)$/);
  t.is(requestLine(all, '/'), undefined);
  const notFound = requestLine(all, '/nope');
  t.like(notFound, { level: 40, status: 404 });
  t.is(notFound?.['token'], undefined);
  t.is(notFound?.['profile'], undefined);
  t.regex(String(notFound?.msg), /^GET \/nope 404 [0-9.]+ ms$/);
});

test.serial('LOG_LEVEL=silent prints the listening line and nothing else', async (t) => {
  const prefix = testKeyPrefix();
  t.teardown(() => deleteKeys(REDIS_URL, prefix));
  const server = await spawnServer({ REDIS_PREFIX: prefix, LOG_FORMAT: 'json', LOG_LEVEL: 'silent' });
  t.is((await get(server, '/')).status, 200);
  t.is((await get(server, '/boom')).status, 500);
  t.is((await get(server, '/nope')).status, 404);
  server.child.kill('SIGTERM');
  t.is(await server.exited, 0);
  const all = records(server.output());
  t.is(all.length, 1, server.output());
  t.regex(String(all[0]?.msg), LISTENING);
});

for (const format of ['json', 'pretty'] as const) {
  test.serial(`LOG_FORMAT=${format}: the request line is redacted as profiles are, and shows control characters escaped`, async (t) => {
    const server = await demo(t, { LOG_FORMAT: format });
    // A 404's error quotes the Referer; CSI (U+009B) opens a terminal escape sequence.
    const referer = 'http://evil.example/?secret=LEAKME&next=redis://:REDISPW@db.example:6379\u009b31m';
    const notFound = await rawRequest(server.port, `GET /nope HTTP/1.1\r\nHost: 127.0.0.1\r\nReferer: ${referer}\r\nConnection: close\r\n\r\n`);
    t.regex(notFound, /^HTTP\/1\.1 404 /);
    t.is((await get(server, '/reset/token=SEGMENTSECRET')).status, 404);
    const output = await outputWhen(server, (text) => text.includes('/reset/token='));
    for (const secret of ['LEAKME', 'SEGMENTSECRET', 'REDISPW']) t.false(output.includes(secret), `${secret} reached the log:\n${output}`);
    t.false(output.includes('\u009b'), 'a raw C1 control character reached the log');
    t.true(output.includes('\\x9b31m'), output);
    t.true(output.includes('secret=******'), output);
    t.true(output.includes('/reset/token=******'), output);
  });
}
