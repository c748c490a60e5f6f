import { execFile } from 'node:child_process';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { serve as serveNode } from '@hono/node-server';
import test from 'ava';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { stream } from 'hono/streaming';
import Redis from 'ioredis';
import { loupe, type LoupeMiddleware, type StartedProfiler } from '../../../src/profiler/adapters/hono';
import { machineOf } from '../../../src/profiler/collect/collectors/machine-view';
import { type Profile } from '../../../src/profiler/profile';
import { abandonedProfile, adapterRedisEnv, adapterTestBed, assertOwnQueries, assertPagesServed, assertToolbarPage, HTML_PAGE, storedProfile } from '../../helpers/adapter-test-bed';
import { deferred } from '../../helpers/deferred';
import { httpRequest } from '../../helpers/http-client';
import { parseServerTiming } from '../../helpers/server-timing';
import { TYPESCRIPT } from '../../helpers/typescript-loader';

/*
 * `loupe-kernel/hono` on a real Hono 4 application served by `@hono/node-server` on a free port,
 * storing in the test Redis under a key prefix of its own: tokens, Server-Timing and the toolbar
 * (compressed and streamed pages untouched), the route pattern of a sub-application, middleware
 * and handler as states and spans, errors Hono hands to onError, notFound's 404, the SQL, HTTP
 * calls and Redis commands of 50 concurrent requests each in its own profile, and the profiler's
 * pages answered by the middleware.
 */

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROOT = path.resolve(__dirname, '..', '..', '..');
const bed = adapterTestBed(test);
const pool = bed.pool;
/** Resolved once the handler of `/hang` has started. */
const hangReached = deferred();

/** The application's own Redis client and an upstream for its HTTP calls, shared by the tests. */
let redis: Redis;
let upstream: http.Server;
let upstreamUrl: string;
let appKeys: string;

test.before(async () => {
  appKeys = bed.keyPrefix();
  redis = new Redis(REDIS_URL, { lazyConnect: true });
  await redis.connect();
  upstream = http.createServer((req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ path: req.url })));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  bed.onClose(async () => {
    upstream.closeAllConnections();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    await redis.quit();
  });
});

/** A sub-application with its own onError (Hono then wraps its handlers), mounted at `/api/users`. */
function usersApp(): Hono {
  const users = new Hono();
  users.post('/:id', async function saveUser(c) {
    const { n } = await c.req.json<{ n: number }>();
    const { rows } = await pool.query<{ n: number }>(`SELECT $1::int AS n, pg_sleep(${(n % 3) / 100})`, [n]);
    return c.json({ n: rows[0]?.n, id: c.req.param('id') });
  });
  users.onError((error, c) => c.text(`Users: ${error.message}`, 500));
  return users;
}

/** An application with the profiler first, a named middleware, a sub-application, and handlers that query, call, render, stream and fail. */
function application(profiler: LoupeMiddleware): Hono {
  const app = new Hono();
  app.use(profiler);
  app.use(async function stamp(c, next) {
    await next();
    c.header('X-Stamp', '1');
  });
  app.get('/page', function showPage(c) {
    return c.html(HTML_PAGE, 200, { 'Content-Length': String(Buffer.byteLength(HTML_PAGE)), ETag: '"v1"' });
  });
  app.get('/quiet', (c) => c.html(HTML_PAGE, 200, { 'X-Debug-Toolbar': 'off' }));
  app.get('/stream', (c) => {
    c.header('Content-Type', 'text/html; charset=utf-8');
    return stream(c, async (out) => {
      await out.write('<html><body><p>first</p>');
      await new Promise((resolve) => setTimeout(resolve, 20));
      await out.write('<p>later</p></body></html>');
    });
  });
  app.get('/gzip', (c) => c.body(new Uint8Array(gzipSync(HTML_PAGE)), 200, { 'Content-Type': 'text/html', 'Content-Encoding': 'gzip' }));
  app.get('/compressed', compress({ threshold: 0 }), (c) => c.html(HTML_PAGE));
  app.route('/api/users', usersApp());
  app.get('/io/:n', async function callEverything(c) {
    const n = Number(c.req.param('n'));
    const { rows } = await pool.query<{ n: number }>(`SELECT $1::int AS n, pg_sleep(${(n % 3) / 100})`, [n]);
    const called = (await (await fetch(`${upstreamUrl}/echo/${n}`)).json()) as { path: string };
    const count = await redis.incr(`${appKeys}io:${n}`);
    return c.json({ n: rows[0]?.n, called: called.path, count });
  });
  // A fetch() answer passed on as it is: its headers cannot be changed.
  app.get('/proxy', () => fetch(`${upstreamUrl}/echo/proxy`));
  app.get('/hang', async (c) => {
    hangReached.resolve();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return c.json({ late: true });
  });
  app.get('/fail', async function failLater() {
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('The handler failed later.');
  });
  app.get('/throw', function failNow() {
    throw new Error('The handler failed at once.');
  });
  app.get('/throw-value', function throwValue() {
    // Hono's onError gets only Errors: anything else goes up to the server.
    throw 'A value, not an Error.';
  });
  app.onError((error, c) => c.text(`Sorry: ${error.message}`, 500));
  return app;
}

/** The options of a test's middleware: the test Redis, a key prefix of its own, development. */
function options(): Parameters<typeof loupe>[0] {
  return { env: adapterRedisEnv(bed.keyPrefix()), log: () => undefined };
}

/** `app` on `@hono/node-server` on a free port; closed after the file's tests. */
async function listen(app: Hono, middleware: LoupeMiddleware): Promise<number> {
  const server = serveNode({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as http.Server;
  await new Promise<void>((resolve) => (server.listening ? resolve() : server.once('listening', resolve)));
  bed.onClose(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await middleware.close();
  });
  return (server.address() as AddressInfo).port;
}

/** The test application, profiled, listening on a free port: one for the tests that read their own requests' profiles. */
let served: Promise<{ port: number; profiler: StartedProfiler }> | null = null;

/** The test application, started by the first test that asks for it. */
function serve(): Promise<{ port: number; profiler: StartedProfiler }> {
  served ??= (async () => {
    const middleware = loupe(options());
    const port = await listen(application(middleware), middleware);
    const profiler = await middleware.start();
    if (profiler === null) throw new Error('The profiler is off.');
    return { port, profiler };
  })();
  return served;
}

const entry = (profile: Profile, name: string): Record<string, unknown> => profile.collectors[name] as Record<string, unknown>;

/** The messages of the errors the Exception panel shows, in order. */
const errorMessages = (profile: Profile): string[] => (entry(profile, 'exception') as { errors: { message: string }[] }).errors.map((error) => error.message);

/** The bytes of a response, as sent (not decompressed). */
function rawGet(port: number, path: string, headers: Readonly<Record<string, string>> = {}): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

function postJson(port: number, path: string, body: unknown): ReturnType<typeof httpRequest> {
  return httpRequest(port, { method: 'POST', path, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

test('an HTML page of c.html() carries its token and link, and the toolbar with a corrected length and no ETag; the application\'s middleware still adds its headers', async (t) => {
  const { port } = await serve();
  const page = await httpRequest(port, { path: '/page' });
  assertToolbarPage(t, port, page);
  t.is(page.headers['x-stamp'], '1');
  const quiet = await httpRequest(port, { path: '/quiet' });
  t.is(quiet.body, HTML_PAGE);
  t.is(quiet.headers['x-debug-toolbar'], undefined, 'the directive is for Loupe, not the client');
  const xhr = await httpRequest(port, { path: '/page', headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  t.is(xhr.body, HTML_PAGE);
  const head = await httpRequest(port, { method: 'HEAD', path: '/page' });
  t.is(head.status, 200);
  t.regex(String(head.headers['x-debug-token']), /^[0-9a-f]{6}$/);
});

test('a streamed page and a compressed one go untouched, without toolbar, with their token', async (t) => {
  const { port } = await serve();
  const streamed = await httpRequest(port, { path: '/stream' });
  t.is(streamed.body, '<html><body><p>first</p><p>later</p></body></html>');
  t.regex(String(streamed.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  const zipped = await rawGet(port, '/gzip');
  t.is(zipped.headers['content-encoding'], 'gzip');
  t.is(gunzipSync(zipped.body).toString(), HTML_PAGE);
  t.regex(String(zipped.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  const compressed = await rawGet(port, '/compressed', { 'Accept-Encoding': 'gzip' });
  t.is(compressed.headers['content-encoding'], 'gzip', 'compress() after loupe compressed the page');
  t.is(gunzipSync(compressed.body).toString(), HTML_PAGE);
  t.regex(String(compressed.headers['x-debug-token']), /^[0-9a-f]{6}$/);
});

test('a response of fetch() passed on as it is, whose headers cannot change, carries its token and Server-Timing', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/proxy' });
  t.deepEqual(JSON.parse(res.body), { path: '/echo/proxy' });
  t.truthy(res.headers['server-timing']);
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.like(profile, { statusCode: 200 });
  t.deepEqual(
    (entry(profile, 'http_client') as { calls: { url: string }[] }).calls.map((call) => call.url),
    [`${upstreamUrl}/echo/proxy`],
  );
});

test('with compress() mounted before loupe, the page is compressed with its toolbar in it', async (t) => {
  const middleware = loupe(options());
  const app = new Hono();
  app.use(compress({ threshold: 0 }));
  app.use(middleware);
  app.get('/page', (c) => c.html(HTML_PAGE));
  const port = await listen(app, middleware);
  await middleware.start();
  const page = await rawGet(port, '/page', { 'Accept-Encoding': 'gzip' });
  t.is(page.headers['content-encoding'], 'gzip');
  t.regex(String(page.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  const body = gunzipSync(page.body).toString();
  t.true(body.includes('id="loupe-wdt-'), 'the toolbar is in the page');
  t.true(body.indexOf('loupe-wdt-') < body.indexOf('</body>'));
});

test('the profile names the sub-application\'s route pattern and the handler, holds the middleware, handler and response states and a span per layer, and the SQL with its origin; Server-Timing says the same', async (t) => {
  const { port, profiler } = await serve();
  const res = await postJson(port, '/api/users/42', { n: 7 });
  t.is(res.status, 200);
  t.deepEqual(JSON.parse(res.body), { n: 7, id: '42' });
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.like(profile, { method: 'POST', statusCode: 200, aborted: false });
  t.like(entry(profile, 'router'), { route: 'POST /api/users/:id', controller: 'saveUser' });
  t.like(entry(profile, 'router')['params'], { id: '42' });
  t.deepEqual(
    machineOf(profile)?.states.map((state) => state.name),
    ['request', 'middleware', 'handler', 'middleware', 'response'],
  );
  const db = entry(profile, 'db') as { queries: { params: unknown[]; origin: { file: string } | null }[] };
  t.deepEqual(
    db.queries.map((query) => query.params),
    [[7]],
  );
  t.regex(db.queries[0]?.origin?.file ?? '', /hono-adapter-http\.test\.ts$/);
  const timeline = JSON.stringify(entry(profile, 'timeline'));
  for (const name of ['"stamp"', '"saveUser"']) t.true(timeline.includes(name), `${name} in the timeline`);
  const timing = parseServerTiming(String(res.headers['server-timing']));
  t.deepEqual(
    timing.map((metric) => metric.name),
    ['request', 'middleware', 'handler', 'response', 'db', 'total'],
  );
  t.is(timing.find((metric) => metric.name === 'handler')?.desc, 'saveUser');
  t.true(timing.every((metric) => typeof metric.dur === 'number' && metric.dur >= 0));
});

test('an error thrown by an async handler and one thrown at once: the application\'s onError answers, and the profile holds the error with a frame in this file', async (t) => {
  const { port, profiler } = await serve();
  for (const [path, message, handler] of [
    ['/fail', 'The handler failed later.', 'failLater'],
    ['/throw', 'The handler failed at once.', 'failNow'],
  ] as const) {
    const res = await httpRequest(port, { path });
    t.is(res.status, 500);
    t.is(res.body, `Sorry: ${message}`);
    const profile = await storedProfile(profiler, res.headers['x-debug-token']);
    t.is(profile.statusCode, 500);
    t.like(entry(profile, 'router'), { route: `GET ${path}`, controller: handler });
    t.deepEqual(errorMessages(profile), [message]);
    const { errors } = entry(profile, 'exception') as { errors: { trace: { file: string }[] }[] };
    t.true(
      errors[0]?.trace.some((frame) => /hono-adapter-http\.test\.ts$/.test(frame.file)),
      JSON.stringify(errors[0]?.trace),
    );
    t.true(machineOf(profile)?.states.some((state) => state.name === 'onError'), `${path}: the onError state`);
  }
});

test('a value thrown that is no Error gets past onError to the server\'s 500, and the profile holds it', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/throw-value' });
  t.is(res.status, 500);
  let row;
  for (let attempt = 0; attempt < 100 && row === undefined; attempt++) {
    await profiler.writer.whenIdle();
    row = (await profiler.storage.find({ limit: 50 })).find((found) => found.url.endsWith('/throw-value'));
    if (row === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const profile = await storedProfile(profiler, row?.token);
  t.like(profile, { statusCode: 500, aborted: false });
  t.deepEqual(errorMessages(profile), ['A value, not an Error.']);
  t.like(entry(profile, 'router'), { route: 'GET /throw-value', controller: 'throwValue' });
});

test('a path no route answers is Hono\'s notFound: a 404 of no route', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/nowhere' });
  t.is(res.status, 404);
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.like(profile, { statusCode: 404, method: 'GET' });
  const router = entry(profile, 'router') as { route: string | null; failure: string | null };
  t.is(router.route, null);
  t.regex(router.failure ?? '', /^No route found for "GET http:\/\/127\.0\.0\.1:\d+\/nowhere"/);
});

test('50 concurrent requests: each profile holds exactly its own SQL query, HTTP call and Redis command', async (t) => {
  const { port, profiler } = await serve();
  const responses = await Promise.all(Array.from({ length: 50 }, (_, n) => httpRequest(port, { path: `/io/${n}` })));
  for (const [n, res] of responses.entries()) {
    t.like(JSON.parse(res.body), { n, called: `/echo/${n}` }, `request ${n}`);
  }
  await assertOwnQueries(t, profiler, responses);
  for (const [n, res] of responses.entries()) {
    const profile = await storedProfile(profiler, res.headers['x-debug-token']);
    const { calls } = entry(profile, 'http_client') as { calls: { url: string }[] };
    t.deepEqual(
      calls.map((call) => call.url),
      [`${upstreamUrl}/echo/${n}`],
      `request ${n}`,
    );
    const { commands } = entry(profile, 'redis') as { commands: { command: string; args: string[] }[] };
    t.deepEqual(
      commands.map((command) => [command.command, ...command.args]),
      [['INCR', `${appKeys}io:${n}`]],
      `request ${n}`,
    );
  }
});

test('a client that leaves before the answer leaves an aborted profile, and the application keeps serving', async (t) => {
  const { port, profiler } = await serve();
  const aborted = await abandonedProfile(profiler, port, '/hang', hangReached.promise);
  t.like(aborted, { aborted: true, statusCode: 0 });
  t.is((await httpRequest(port, { path: '/page' })).status, 200);
});

test('the middleware answers the profiler\'s pages, their JSON and the toolbar\'s content before the application\'s middleware, none of them profiled, and refuses a foreign Host', async (t) => {
  const { port } = await serve();
  const panel = await assertPagesServed(t, port);
  t.is(panel.headers['x-stamp'], undefined, 'no middleware of the application ran');
});

test('called through app.fetch, without @hono/node-server, a request is profiled and gets the toolbar for the address clientAddress gives', async (t) => {
  const middleware = loupe({ ...options(), clientAddress: () => '127.0.0.1' });
  const app = application(middleware);
  bed.onClose(() => middleware.close());
  const profiler = await middleware.start();
  if (profiler === null) throw new Error('The profiler is off.');
  const res = await app.fetch(new Request('http://127.0.0.1/page'));
  const body = await res.text();
  t.true(body.includes('id="loupe-wdt-'), 'the toolbar is in the page');
  t.is(Number(res.headers.get('content-length')), Buffer.byteLength(body));
  const profile = await storedProfile(profiler, res.headers.get('x-debug-token'));
  t.like(profile, { method: 'GET', statusCode: 200, url: 'http://127.0.0.1/page' });
});

test('with NODE_ENV=production or enabled: false the middleware only calls next()', async (t) => {
  for (const off of [loupe({ env: { NODE_ENV: 'production' } }), loupe({ enabled: false })]) {
    t.is(await off.start(), null);
    const app = application(off);
    const page = await app.fetch(new Request('http://127.0.0.1/page'));
    t.is(await page.text(), HTML_PAGE);
    t.is(page.headers.get('x-debug-token'), null);
    t.is(page.headers.get('server-timing'), null);
    t.is((await app.fetch(new Request('http://127.0.0.1/_profiler/abcdef'))).status, 404);
  }
});

test('off, the adapter loads nothing of the profiler: only its entry and the NODE_ENV check', async (t) => {
  t.timeout(60_000);
  const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT, path.resolve(__dirname, '..', '..', 'fixtures', 'loaded-by-hono-adapter-off.ts')]);
  t.deepEqual(stdout.trim().split('\n'), ['src/profiler/adapters/hono/index.ts', 'src/profiler/adapters/is-profiling-enabled.ts']);
});

test('on, a Hono application with the adapter loads no uWebSockets.js: no such module, and no native addon mapped into the process', async (t) => {
  t.timeout(60_000);
  const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT, path.resolve(__dirname, '..', '..', 'fixtures', 'loaded-by-hono-adapter.ts')], {
    cwd: ROOT,
    env: adapterRedisEnv(bed.keyPrefix()),
  });
  const lines = stdout.split('\n').filter((line) => line !== '');
  t.true(lines.includes('src/profiler/adapters/hono/hono-middleware.ts'), 'the profiler was on');
  t.true(lines.includes('node_modules/hono'));
  for (const line of lines) t.false(/uWebSockets|uwebsockets|uws_/.test(line), `${line} was loaded`);
  t.deepEqual(
    lines.filter((line) => line.startsWith('addon ') || line.endsWith('.node')),
    [],
  );
});
