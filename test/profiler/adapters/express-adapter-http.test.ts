import { execFile } from 'node:child_process';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import express from 'express';
import { loupe, type LoupeMiddleware, type StartedProfiler } from '../../../src/profiler/adapters/express';
import { type Profile } from '../../../src/profiler/profile';
import { adapterTestBed, assertOwnQueries, assertPagesServed, assertToolbarPage, HTML_PAGE, storedProfile } from '../../helpers/adapter-test-bed';
import { httpRequest } from '../../helpers/http-client';
import { checkServerTiming } from '../../helpers/server-timing';
import { TYPESCRIPT } from '../../helpers/typescript-loader';

/*
 * `loupe-kernel/express` on a real Express 5 application: tokens and the toolbar, the route
 * pattern (a nested router's mount path included), the states and spans of middleware and
 * handlers, captured SQL in each request's own profile, errors of async handlers caught without
 * an error middleware, the final handler's 404, and the profiler's pages served before the routes.
 */

const bed = adapterTestBed(test);
const pool = bed.pool;

/** An application with the profiler first, a named middleware, a nested router, and handlers that query, render and fail. */
function application(profiler: LoupeMiddleware, options: { readonly errorPage?: boolean } = {}): express.Express {
  const app = express();
  // Express's final handler prints errors to stderr outside the `test` environment.
  app.set('env', 'test');
  app.use(profiler);
  app.use(express.json());
  app.use(function stamp(_req, res, next) {
    res.setHeader('X-Stamp', '1');
    next();
  });
  app.get('/page', function showPage(_req, res) {
    res.send(HTML_PAGE);
  });
  const users = express.Router();
  users.post('/:id', async function saveUser(req, res) {
    const n = Number((req.body as { n?: unknown }).n);
    const { rows } = await pool.query<{ n: number }>(`SELECT $1::int AS n, pg_sleep(${(n % 3) / 100})`, [n]);
    res.json({ n: rows[0]?.n, id: req.params['id'] });
  });
  app.use('/api/users', users);
  app.get('/timed', function timed(_req, res) {
    res.setHeader('Server-Timing', 'app;dur=1.5');
    res.json({ timed: true });
  });
  app.get('/fail', async function failLater() {
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('The handler failed later.');
  });
  if (options.errorPage === true) {
    app.use(profiler.errors());
    app.use(function errorPage(error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) {
      res.status(503).type('text').send(`Sorry: ${error.message}`);
    });
  }
  return app;
}

/** The application listening on a free port, profiled under a key prefix of its own. */
async function serve(options: { readonly errorPage?: boolean; readonly serverTiming?: boolean } = {}): Promise<{ port: number; profiler: StartedProfiler }> {
  const middleware = loupe({ env: bed.redisEnv(), log: () => undefined, ...(options.serverTiming === undefined ? {} : { serverTiming: options.serverTiming }) });
  const server = http.createServer(application(middleware, options));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bed.onClose(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await middleware.close();
  });
  const profiler = await middleware.start();
  if (profiler === null) throw new Error('The profiler is off.');
  return { port: (server.address() as AddressInfo).port, profiler };
}

const entry = (profile: Profile, name: string): Record<string, unknown> => profile.collectors[name] as Record<string, unknown>;

/** The messages of the errors the Exception panel shows, in order. */
const errorMessages = (profile: Profile): string[] => (entry(profile, 'exception') as { errors: { message: string }[] }).errors.map((error) => error.message);

function postJson(port: number, path: string, body: unknown): ReturnType<typeof httpRequest> {
  return httpRequest(port, { method: 'POST', path, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

test('an HTML page of res.send() carries its token and link, and the toolbar with a corrected length', async (t) => {
  const { port } = await serve();
  const page = await httpRequest(port, { path: '/page' });
  assertToolbarPage(t, port, page);
  t.is(page.headers['x-stamp'], '1', 'the application\'s middleware ran');
});

test('the profile names the route pattern with its router\'s mount path and the handler, holds the middleware, handler and response states, and the SQL with its origin', async (t) => {
  const { port, profiler } = await serve();
  const res = await postJson(port, '/api/users/42', { n: 7 });
  t.is(res.status, 200);
  t.deepEqual(JSON.parse(res.body), { n: 7, id: '42' });
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.like(profile, { method: 'POST', statusCode: 200 });
  t.like(entry(profile, 'router'), { route: 'POST /api/users/:id', controller: 'saveUser' });
  const db = entry(profile, 'db') as { queries: { sql: string; params: unknown[]; origin: { file: string } | null }[] };
  t.deepEqual(
    db.queries.map((query) => query.params),
    [[7]],
  );
  t.regex(db.queries[0]?.origin?.file ?? '', /express-adapter-http\.test\.ts$/);
  const timeline = JSON.stringify(entry(profile, 'timeline'));
  for (const name of ['"middleware"', '"handler"', '"response"', '"jsonParser"', '"stamp"', '"saveUser"']) t.true(timeline.includes(name), `${name} in the timeline`);
  t.true(timeline.indexOf('"middleware"') < timeline.indexOf('"handler"') && timeline.indexOf('"handler"') < timeline.indexOf('"response"'), 'the states in order');
});

test('Server-Timing names the middleware, the handler with its name, the SQL and the total, after the metrics the application set itself; off with serverTiming: false', async (t) => {
  const { port } = await serve();
  const res = await postJson(port, '/api/users/42', { n: 7 });
  const timing = await checkServerTiming(t, port, res.headers['server-timing'], ['request', 'middleware', 'handler', 'response', 'db', 'total'], '/nowhere');
  t.is(timing.find((metric) => metric.name === 'handler')?.desc, 'saveUser');
  const off = await serve({ serverTiming: false });
  const quiet = await postJson(off.port, '/api/users/42', { n: 7 });
  t.regex(String(quiet.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  t.is(quiet.headers['server-timing'], undefined);
});

test('an error thrown by an async handler is in the profile without an error middleware: 500, its message and a frame in this file', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/fail' });
  t.is(res.status, 500);
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.is(profile.statusCode, 500);
  t.like(entry(profile, 'router'), { route: 'GET /fail', controller: 'failLater' });
  t.deepEqual(errorMessages(profile), ['The handler failed later.']);
  const { errors } = entry(profile, 'exception') as { errors: { trace: { file: string }[] }[] };
  t.true(errors[0]?.trace.some((frame) => /express-adapter-http\.test\.ts$/.test(frame.file)), JSON.stringify(errors[0]?.trace));
});

test('errors() mounted before the application\'s error page records the error once and passes it on', async (t) => {
  const { port, profiler } = await serve({ errorPage: true });
  const res = await httpRequest(port, { path: '/fail' });
  t.is(res.status, 503);
  t.is(res.body, 'Sorry: The handler failed later.');
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.deepEqual(errorMessages(profile), ['The handler failed later.']);
  t.true(JSON.stringify(entry(profile, 'timeline')).includes('"error handler"'));
});

test('a request no route answers is the final handler\'s 404, with no route and no error', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/nowhere' });
  t.is(res.status, 404);
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.is(profile.statusCode, 404);
  t.is(entry(profile, 'router')['route'], null);
  t.deepEqual(errorMessages(profile), []);
});

test('24 concurrent requests through a shared pool, their bodies parsed first: each profile holds exactly its own query', async (t) => {
  const { port, profiler } = await serve();
  const responses = await Promise.all(Array.from({ length: 24 }, (_, n) => postJson(port, `/api/users/${n}`, { n })));
  for (const [n, res] of responses.entries()) {
    t.is(res.status, 200, `request ${n}`);
  }
  await assertOwnQueries(t, profiler, responses);
});

test('the application answers the profiler\'s pages before its routes, none of them profiled, and refuses a foreign Host', async (t) => {
  const { port } = await serve();
  const panel = await assertPagesServed(t, port);
  t.is(panel.headers['x-stamp'], undefined, 'no middleware of the application ran');
});

test('with NODE_ENV=production the middleware only passes requests on', async (t) => {
  const middleware = loupe({ env: { NODE_ENV: 'production' } });
  t.is(await middleware.start(), null);
  const server = http.createServer(application(middleware));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const page = await httpRequest(port, { path: '/page' });
    t.is(page.body, HTML_PAGE);
    t.is(page.headers['x-debug-token'], undefined);
    t.is((await httpRequest(port, { path: '/_profiler/abcdef' })).status, 404);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('off, the adapter loads nothing of the profiler: only its entry and the NODE_ENV check', async (t) => {
  t.timeout(60_000);
  const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT, path.resolve(__dirname, '..', '..', 'fixtures', 'loaded-by-express-adapter-off.ts')]);
  t.deepEqual(stdout.trim().split('\n'), ['src/profiler/adapters/express/index.ts', 'src/profiler/adapters/is-profiling-enabled.ts']);
});
