import { Writable } from 'node:stream';
import test, { type ExecutionContext } from 'ava';
import { createLogger, createLoupe, LoupeResponse, serve, type Config, type Loupe, type LoupeConfigInput, type LoupeOptions } from '../../src';
import { type Profile } from '../../src/profiler';
import { httpRequest, type HttpResult } from '../helpers/http-client';
import { deleteKeys } from '../helpers/test-server';
import { testKeyPrefix } from '../helpers/test-redis';

/*
 * A configuration given to createLoupe in code, over real HTTP: each option given wins over its
 * environment variable, which wins over the default; the profiler is on or off apart from debug.
 * Every application here reads the environment it is given (`env`), never the test runner's.
 */

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const SECRET_DETAIL = 'The ledger row 4711 is locked.';
const apps: Loupe[] = [];
const prefixes: string[] = [];

const ROUTES: NonNullable<LoupeOptions['routes']> = [
  { name: 'hello', path: '/hello', methods: ['GET'], controller: { name: 'hello', handle: () => new LoupeResponse('hello') } },
  { name: 'upload', path: '/upload', methods: ['POST'], controller: { name: 'upload', handle: () => new LoupeResponse('stored') } },
  {
    name: 'outgoing',
    path: '/outgoing',
    methods: ['GET'],
    controller: { name: 'outgoing', handle: async ({ request }) => new LoupeResponse(await (await fetch(new URL('/hello', request.uri))).text()) },
  },
  {
    name: 'boom',
    path: '/boom',
    methods: ['GET'],
    controller: {
      name: 'boom',
      handle: () => {
        throw new Error(SECRET_DETAIL);
      },
    },
  },
];

/** An application listening on a free port, with `config` given in code; closed (and its Redis keys deleted) after the tests. */
async function listening(config: LoupeConfigInput): Promise<{ app: Loupe; port: number }> {
  const app = createLoupe({ routes: ROUTES, config, logger: createLogger({ level: 'silent', format: 'json' }) });
  apps.push(app);
  if (app.config.redis !== null) prefixes.push(app.config.redis.prefix);
  return { app, port: (await app.listen()).port };
}

test.after.always(async () => {
  for (const app of apps) await app.close();
  for (const prefix of prefixes) await deleteKeys(REDIS_URL, prefix);
});

function get(port: number, path: string, accept = 'text/html'): Promise<HttpResult> {
  return httpRequest(port, { path, headers: { Accept: accept } });
}

/** The stored profile of `token`, read back over HTTP from `/_profiler/{token}` once the writer stored it. */
async function profileOf(app: Loupe, port: number, token: string): Promise<{ status: number; profile: Profile }> {
  await app.profiler?.writer.whenIdle();
  const res = await get(port, `/_profiler/${token}`, 'application/json');
  return { status: res.status, profile: JSON.parse(res.body) as Profile };
}

function assertDetailedErrorPage(t: ExecutionContext, page: HttpResult, problem: HttpResult): void {
  t.is(page.status, 500);
  t.true(page.body.includes(SECRET_DETAIL), 'the HTML error page shows the message');
  t.like(JSON.parse(problem.body), { detail: SECRET_DETAIL, class: 'Error' }, 'the problem JSON has the class and message');
  t.true('trace' in (JSON.parse(problem.body) as object), 'and the trace');
}

function assertPublicErrorPage(t: ExecutionContext, page: HttpResult, problem: HttpResult): void {
  t.is(page.status, 500);
  t.false(page.body.includes(SECRET_DETAIL), 'the HTML error page says nothing of the error');
  t.false(problem.body.includes(SECRET_DETAIL), 'nor does the problem JSON');
  t.false('trace' in (JSON.parse(problem.body) as object));
}

test('debug without the profiler: detailed error pages, no X-Debug-Token, no /_profiler', async (t) => {
  const { app, port } = await listening({ env: {}, appEnv: 'test', debug: true, profiler: false, redis: null, server: { port: 0 } });
  assertDetailedErrorPage(t, await get(port, '/boom'), await get(port, '/boom', 'application/json'));
  const hello = await get(port, '/hello');
  t.is(hello.status, 200);
  t.is(hello.headers['x-debug-token'], undefined);
  t.is(hello.headers['x-debug-token-link'], undefined);
  t.is((await get(port, '/_profiler/')).status, 404, 'the profiler is not loaded: its pages are a plain 404');
  t.is(app.profiler, null);
});

test('the profiler without debug: each request profiled, the profile readable at /_profiler/{token}, error pages as in production', async (t) => {
  const prefix = testKeyPrefix();
  const { app, port } = await listening({ env: {}, appEnv: 'prod', security: { secret: 'a-secret-of-our-own' }, profiler: true, redis: { url: REDIS_URL, prefix }, server: { port: 0 } });
  t.false(app.config.debug);
  const page = await get(port, '/boom');
  assertPublicErrorPage(t, page, await get(port, '/boom', 'application/json'));
  const token = page.headers['x-debug-token'];
  t.regex(String(token), /^[0-9a-f]{6}$/, 'the error response carries its token');
  const { status, profile } = await profileOf(app, port, String(token));
  t.is(status, 200);
  t.is(profile.token, String(token));
  t.is(profile.statusCode, 500);
  t.true(profile.url.endsWith('/boom'));
  t.true(JSON.stringify(profile).includes(SECRET_DETAIL), 'the profile (for allowed clients only) keeps what the page hides');
  // REQUEST_CONTEXT follows the profiler, not debug alone: the application's HTTP calls are captured in prod.
  const outgoing = await get(port, '/outgoing');
  t.is(outgoing.body, 'hello');
  const calls = (await profileOf(app, port, String(outgoing.headers['x-debug-token']))).profile.collectors['http_client'] as unknown as { calls: readonly { url: string }[] };
  t.true(calls.calls.some((call) => call.url.endsWith('/hello')), 'the fetch made by the controller is in its profile');
});

test('the profiler follows debug unless told: PROFILER_ENABLED in the environment, `profiler` in code over it', async (t) => {
  const fromEnv = await listening({ env: { APP_DEBUG: '1', PROFILER_ENABLED: '0', REDIS_URL: '' }, server: { port: 0 } });
  t.is((await get(fromEnv.port, '/hello')).headers['x-debug-token'], undefined, 'PROFILER_ENABLED=0 turns it off with debug on');
  const inCode = await listening({ env: { APP_DEBUG: '1', PROFILER_ENABLED: '0', REDIS_URL: '' }, profiler: true, server: { port: 0 } });
  t.regex(String((await get(inCode.port, '/hello')).headers['x-debug-token']), /^[0-9a-f]{6}$/, 'profiler: true in code wins');
  const byDefault = await listening({ env: { APP_DEBUG: '1', REDIS_URL: '' }, server: { port: 0 } });
  t.regex(String((await get(byDefault.port, '/hello')).headers['x-debug-token']), /^[0-9a-f]{6}$/, 'unset: on with debug');
});

test('options given in code win over the environment: port, debug, body size and Redis', async (t) => {
  const prefix = testKeyPrefix();
  const env = { PORT: '1', APP_DEBUG: '0', MAX_BODY_SIZE: '10', REDIS_URL: '', REDIS_PREFIX: 'not-this-one:' };
  const { app, port } = await listening({ env, debug: true, server: { port: 0, maxBodySize: 1000 }, redis: { url: REDIS_URL, prefix } });
  t.not(port, 1, 'server.port 0 in code, not PORT=1');
  assertDetailedErrorPage(t, await get(port, '/boom'), await get(port, '/boom', 'application/json'));
  t.is((await httpRequest(port, { method: 'POST', path: '/upload', body: 'x'.repeat(100) })).status, 200, 'a body of 100 bytes is under server.maxBodySize, over MAX_BODY_SIZE');
  const token = (await get(port, '/hello')).headers['x-debug-token'];
  const { status, profile } = await profileOf(app, port, String(token));
  t.is(status, 200);
  t.is(profile.token, String(token), 'stored in the Redis given in code, though REDIS_URL is empty');
  t.is(app.config.redis?.prefix, prefix, 'redis.prefix in code, not REDIS_PREFIX');
});

test('the environment wins over the defaults where the code says nothing', async (t) => {
  const { app, port } = await listening({ env: { APP_ENV: 'test', MAX_BODY_SIZE: '10', REDIS_URL: '', APP_DEBUG: '0', SERVER_TIMING: '1' }, server: { port: 0 } });
  t.is((await httpRequest(port, { method: 'POST', path: '/upload', body: 'x'.repeat(100) })).status, 413, 'MAX_BODY_SIZE=10 over the default 1 MiB');
  const hello = await get(port, '/hello');
  t.is(hello.headers['x-debug-token'], undefined, 'APP_DEBUG=0: no profiler either');
  t.regex(String(hello.headers['server-timing']), /total;dur=/, 'SERVER_TIMING=1 over its default (debug, off)');
  assertPublicErrorPage(t, await get(port, '/boom'), await get(port, '/boom', 'application/json'));
  t.is(app.config.redis, null, 'REDIS_URL empty: no Redis');
});

test('an invalid option in code is refused by createLoupe, before anything is opened, naming its path', (t) => {
  const make = (config: LoupeConfigInput): Loupe => createLoupe({ routes: ROUTES, config: { env: {}, ...config } });
  t.throws(() => make({ server: { port: 70000 } }), { code: 'LOUPE_ERR_CONFIG_INVALID', message: 'Invalid config.server.port 70000: expected an integer from 0 to 65535.' });
  t.throws(() => make({ redis: { url: 'http://127.0.0.1:6379' } }), { message: /^Invalid config\.redis\.url "http:\/\/127\.0\.0\.1:6379": expected a redis:\/\/, rediss:\/\/ or redis\+cluster:\/\/ URL/ });
  t.throws(() => make({ appEnv: 'prod', redis: null }), { message: 'Invalid APP_SECRET "(default)": expected a secret of your own in prod.' }, 'the default secret in prod is named by its variable');
  t.throws(() => make({ appEnv: 'prod', security: { secret: ' ' }, redis: null }), { message: 'Invalid config.security.secret "(default)": expected a secret of your own in prod.' });
});

test('env: {} reads nothing of the process environment; without it, the process environment is read', (t) => {
  const saved = { APP_DEBUG: process.env['APP_DEBUG'], MAX_BODY_SIZE: process.env['MAX_BODY_SIZE'] };
  process.env['APP_DEBUG'] = '0';
  process.env['MAX_BODY_SIZE'] = '10';
  try {
    const hermetic = createLoupe({ routes: ROUTES, config: { env: {}, redis: null } });
    const fromProcess = createLoupe({ routes: ROUTES, config: { redis: null } });
    t.like(hermetic.config, { debug: true, profiler: true, server: { maxBodySize: 1024 * 1024 } });
    t.like(fromProcess.config, { debug: false, profiler: false, server: { maxBodySize: 10 } });
    t.deepEqual(hermetic.config.env, {});
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
});

test('serve() takes the configuration in code too, hands each createApp the resolved Config, and its listening line says the profiler is on without debug', async (t) => {
  const lines: string[] = [];
  const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(chunk.toString('utf8')), done()) });
  const given: Config[] = [];
  const serving = await serve(
    (config) => {
      given.push(config);
      const app = createLoupe({ routes: ROUTES, config, logger: createLogger({ level: 'silent', format: 'json' }) });
      apps.push(app);
      return app;
    },
    { config: { env: { PORT: '1', PROFILER_ENABLED: '0' }, appEnv: 'test', debug: false, profiler: true, redis: null, server: { host: '127.0.0.1', port: 0 } }, logger: createLogger({ level: 'warn', format: 'json' }, destination) },
  );
  t.like(given, [{ debug: false, profiler: true, redis: null, server: { port: 0 } }]);
  t.regex(String((await get(serving.port, '/hello')).headers['x-debug-token']), /^[0-9a-f]{6}$/);
  const listeningLine = lines.map((line) => (JSON.parse(line) as { msg: string }).msg).find((msg) => msg.startsWith('Loupe listening on'));
  t.regex(String(listeningLine), /^Loupe listening on http:\/\/127\.0\.0\.1:\d+ — profiler: http:\/\/127\.0\.0\.1:\d+\/_profiler\/ \(APP_ENV=test, debug off, profiler on, no Redis: sessions, login throttling and profiles in memory \(this process only\)(; process tuned: [^)]*)?\)$/);
});

test('the profiler\'s own settings given in code (profilerConfig) win over its PROFILER_* variables, and are checked by path', async (t) => {
  const env = { APP_ENV: 'test', REDIS_URL: '', PROFILER_ALLOWED_IPS: '10.0.0.0/8' };
  const byEnv = await listening({ env, server: { port: 0 } });
  t.is((await get(byEnv.port, '/_profiler/', 'application/json')).status, 403, 'PROFILER_ALLOWED_IPS=10.0.0.0/8: loopback is refused');
  const inCode = createLoupe({ routes: ROUTES, config: { env, server: { port: 0 } }, profilerConfig: { allowedIps: ['127.0.0.0/8'] }, logger: createLogger({ level: 'silent', format: 'json' }) });
  apps.push(inCode);
  t.is((await get((await inCode.listen()).port, '/_profiler/', 'application/json')).status, 200, 'allowedIps in code wins');
  t.throws(() => createLoupe({ routes: ROUTES, config: { env: {}, redis: null }, profilerConfig: { sample: 2 } }), { code: 'LOUPE_ERR_CONFIG_INVALID', message: 'Invalid profilerConfig.sample 2: expected a number from 0 to 1.' });
  t.notThrows(() => createLoupe({ routes: ROUTES, config: { env: {}, redis: null, profiler: false }, profilerConfig: { sample: 2 } }), 'with the profiler off nothing of it is read');
});
