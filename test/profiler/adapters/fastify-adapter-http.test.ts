import { execFile } from 'node:child_process';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import test from 'ava';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { loupe } from '../../../src/profiler/adapters/fastify';
import { type StartedProfiler } from '../../../src/profiler/core/start-profiler';
import { machineOf } from '../../../src/profiler/collect/collectors/machine-view';
import { type Profile } from '../../../src/profiler/profile';
import { httpRequest } from '../../helpers/http-client';
import { checkServerTiming } from '../../helpers/server-timing';
import { abandonedProfile, adapterRedisEnv, assertLiveFeed, assertOwnQueries, assertPagesServed, storedProfile } from '../../helpers/adapter-test-bed';
import { deleteKeys } from '../../helpers/test-server';
import { testKeyPrefix } from '../../helpers/test-redis';
import { deferred } from '../../helpers/deferred';

/** Resolved once the handler of `/hang` has started. */
const hangReached = deferred();

/*
 * `loupe-kernel/fastify` registered in a real Fastify 5 application on a free port, storing in
 * the test Redis under a key prefix of its own: tokens, the toolbar, the lifecycle as states,
 * the route, captured SQL in each request's own profile, errors, 404s and the profiler's pages.
 */

const PAGE = '<!DOCTYPE html><html><head><title>t</title></head><body><h1>Hello</h1></body></html>';
const ROOT = path.resolve(__dirname, '..', '..', '..');
/** Named explicitly: without REDIS_URL the plugin keeps its profiles in memory. */
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const prefixes: string[] = [];
const apps: FastifyInstance[] = [];
let pool: pg.Pool;

test.before(() => {
  pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres', max: 4 });
});

test.after.always(async () => {
  for (const app of apps.reverse()) await app.close();
  await pool?.end();
  for (const prefix of prefixes) await deleteKeys(REDIS_URL, prefix);
});

/** The test application, Loupe registered first, listening on a free port. */
async function serve(options: { readonly serverTiming?: boolean } = {}): Promise<{ port: number; profiler: StartedProfiler }> {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  const app = Fastify();
  apps.push(app);
  await app.register(loupe, { env: adapterRedisEnv(prefix), log: () => undefined, ...options });
  app.get('/users/:id', async function showUser(request) {
    const { id } = request.params as { id: string };
    const { rows } = await pool.query<{ n: number }>('SELECT $1::int AS n', [Number(id)]);
    request.log.info('Read user %s.', id);
    return { n: rows[0]?.n };
  });
  app.post('/echo', async (request) => {
    const { rows } = await pool.query<{ n: number }>('SELECT $1::int AS n', [(request.body as { n: number }).n]);
    return rows[0];
  });
  app.get('/query', async (request) => {
    const n = Number((request.query as { n: string }).n);
    const { rows } = await pool.query<{ n: number }>(`SELECT $1::int AS n, pg_sleep(${(n % 3) / 100})`, [n]);
    return { n: rows[0]?.n };
  });
  app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').header('Content-Length', Buffer.byteLength(PAGE)).header('ETag', '"v1"').send(PAGE));
  app.get('/timed', async (_request, reply) => reply.header('Server-Timing', 'app;dur=1.5').send({ timed: true }));
  app.get('/quiet', async (_request, reply) => reply.type('text/html').header('X-Debug-Toolbar', 'off').send(PAGE));
  app.get('/stream', async (_request, reply) => reply.type('text/html').send(Readable.from([PAGE])));
  app.get('/hang', async () => {
    hangReached.resolve();
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { late: true };
  });
  app.get('/fail', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('The handler failed.');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  if (app.loupe === undefined) throw new Error('The profiler is off.');
  return { port: (app.server.address() as AddressInfo).port, profiler: app.loupe };
}

const entry = (profile: Profile, name: string): Record<string, unknown> => profile.collectors[name] as Record<string, unknown>;

test('a JSON route: its token and link, and a profile with the route pattern, the hooks as states in order, the SQL from the handler and its log line', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/users/7' });
  t.is(res.status, 200);
  t.deepEqual(JSON.parse(res.body), { n: 7 });
  const token = String(res.headers['x-debug-token']);
  t.regex(token, /^[0-9a-f]{6}$/);
  t.is(res.headers['x-debug-token-link'], `http://127.0.0.1:${port}/_profiler/${token}`);
  const profile = await storedProfile(profiler, token);
  t.like(profile, { method: 'GET', statusCode: 200, aborted: false });
  t.like(entry(profile, 'router'), { route: 'GET /users/:id', controller: 'showUser' });
  t.deepEqual(
    machineOf(profile)?.states.map((state) => state.name).filter((name) => name !== 'request'),
    ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse'],
  );
  const { queries } = entry(profile, 'db') as { queries: { sql: string; params: unknown[]; origin: { file: string } | null }[] };
  t.deepEqual(
    queries.map((query) => [query.sql, query.params]),
    [['SELECT $1::int AS n', [7]]],
  );
  t.regex(queries[0]?.origin?.file ?? '', /fastify-adapter-http\.test\.ts$/);
  const { records } = entry(profile, 'logs') as { records: { message: string }[] };
  t.true(
    records.some((record) => record.message === 'Read user 7.'),
    JSON.stringify(records),
  );
});

test('Server-Timing names the hooks, the handler, the SQL and the total, after the metrics the application set itself; off with serverTiming: false', async (t) => {
  const { port } = await serve();
  const res = await httpRequest(port, { path: '/users/7' });
  const timing = await checkServerTiming(t, port, res.headers['server-timing'], ['request', 'onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'db', 'total'], '/nowhere');
  t.is(timing.find((metric) => metric.name === 'db')?.desc, 'SQL queries');
  const off = await serve({ serverTiming: false });
  const quiet = await httpRequest(off.port, { path: '/users/7' });
  t.regex(String(quiet.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  t.is(quiet.headers['server-timing'], undefined);
});

test('an HTML page gets the toolbar before its last </body> with a corrected Content-Length; a stream and a page that says X-Debug-Toolbar: off do not', async (t) => {
  const { port } = await serve();
  const page = await httpRequest(port, { path: '/page' });
  t.regex(String(page.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  t.true(page.body.includes('id="loupe-wdt-'), 'the toolbar is in the page');
  t.true(page.body.indexOf('loupe-wdt-') < page.body.lastIndexOf('</body>'));
  t.is(Number(page.headers['content-length']), Buffer.byteLength(page.body));
  t.is(page.headers['etag'], undefined, 'the ETag no longer matches the body');
  const streamed = await httpRequest(port, { path: '/stream' });
  t.is(streamed.body, PAGE);
  t.regex(String(streamed.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  const quiet = await httpRequest(port, { path: '/quiet' });
  t.is(quiet.body, PAGE);
  t.is(quiet.headers['x-debug-toolbar'], undefined, 'the directive is for Loupe, not the client');
  const xhr = await httpRequest(port, { path: '/page', headers: { 'X-Requested-With': 'XMLHttpRequest' } });
  t.is(xhr.body, PAGE);
});

test('an error thrown in an async handler: a 500 whose profile holds it in the Exception panel with its stack', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/fail' });
  t.is(res.status, 500);
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.is(profile.statusCode, 500);
  const { errors } = entry(profile, 'exception') as { errors: { message: string; trace: { file: string }[] }[] };
  t.is(errors[0]?.message, 'The handler failed.');
  t.regex(errors[0]?.trace[0]?.file ?? '', /fastify-adapter-http\.test\.ts$/);
});

test('a client that leaves before the answer leaves an aborted profile, and the application keeps serving', async (t) => {
  const { port, profiler } = await serve();
  const aborted = await abandonedProfile(profiler, port, '/hang', hangReached.promise);
  t.like(aborted, { aborted: true, statusCode: 0 });
  t.is((await httpRequest(port, { path: '/users/1' })).status, 200);
});

test('a path no route answers is recorded as a 404 of no route', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/nope' });
  t.is(res.status, 404);
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.like(profile, { statusCode: 404, method: 'GET' });
  const router = entry(profile, 'router') as { route: string | null; failure: string | null };
  t.is(router.route, null);
  t.regex(router.failure ?? '', /^No route found for "GET http:\/\/127\.0\.0\.1:\d+\/nope"/);
});

test('24 concurrent requests through a shared pool, some with a JSON body to parse: each profile holds exactly its own query', async (t) => {
  const { port, profiler } = await serve();
  const responses = await Promise.all(
    Array.from({ length: 24 }, (_, n) =>
      n % 2 === 0
        ? httpRequest(port, { path: `/query?n=${n}` })
        : httpRequest(port, { method: 'POST', path: '/echo', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ n }) }),
    ),
  );
  for (const [n, res] of responses.entries()) {
    t.deepEqual(JSON.parse(res.body), { n }, `request ${n}`);
  }
  await assertOwnQueries(t, profiler, responses);
});

test("the application answers the profiler's pages, its JSON API and the toolbar's content, none of them profiled, and refuses a Host not allowed", async (t) => {
  const { port } = await serve();
  await assertPagesServed(t, port);
});

test('the application answers the live feed of the search page on its own server: each request\'s summary as it is stored', async (t) => {
  const { port } = await serve();
  await assertLiveFeed(t, port);
});

test('with NODE_ENV=production the plugin does nothing and loads nothing of the profiler', async (t) => {
  const app = Fastify();
  apps.push(app);
  await app.register(loupe, { env: { NODE_ENV: 'production' } });
  app.get('/', async () => ({ ok: true }));
  const res = await app.inject({ url: '/' });
  t.is(res.statusCode, 200);
  t.is(res.headers['x-debug-token'], undefined);
  t.is(app.loupe, undefined);
  t.false(app.hasRoute({ method: 'GET', url: '/_profiler/*' }));
});

test('a process that registers the plugin with NODE_ENV=production loads no module of the profiler', async (t) => {
  // Another process: this one has loaded the profiler for the tests above.
  const script = `
    const Fastify = require('fastify');
    const { loupe } = require('./src/profiler/adapters/fastify');
    const app = Fastify();
    app.register(loupe).ready().then(() => {
      const loaded = Object.keys(require.cache).filter((file) => file.includes('/src/') && !file.includes('/adapters/fastify/index') && !file.endsWith('is-profiling-enabled.ts'));
      process.stdout.write(JSON.stringify(loaded));
      return app.close();
    });`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-r', './test/helpers/register-typescript.js', '-e', script], { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' } });
  t.deepEqual(JSON.parse(stdout), []);
});
