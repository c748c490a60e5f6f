import { execFile } from 'node:child_process';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import express from 'express';
import pg from 'pg';
import { loupe, type LoupeMiddleware, type StartedProfiler } from '../../../src/profiler/adapters/express';
import { type Profile } from '../../../src/profiler/profile';
import { parseProfile } from '../../../src/profiler/profile-schema';
import { httpRequest } from '../../helpers/http-client';
import { deleteKeys } from '../../helpers/test-server';
import { testKeyPrefix } from '../../helpers/test-redis';
import { TYPESCRIPT } from '../../helpers/typescript-loader';

/*
 * `loupe-kernel/express` on a real Express 5 application: tokens and the toolbar, the route
 * pattern (a nested router's mount path included), the states and spans of middleware and
 * handlers, captured SQL in each request's own profile, errors of async handlers caught without
 * an error middleware, the final handler's 404, and the profiler's pages served before the routes.
 */

const PAGE = '<!DOCTYPE html><html><head><title>t</title></head><body><h1>Hello</h1></body></html>';
const prefixes: string[] = [];
const closers: (() => Promise<void>)[] = [];
let pool: pg.Pool;

test.before(() => {
  pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres', max: 4 });
});

test.after.always(async () => {
  for (const close of closers.reverse()) await close();
  await pool?.end();
  for (const prefix of prefixes) await deleteKeys(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', prefix);
});

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
    res.send(PAGE);
  });
  const users = express.Router();
  users.post('/:id', async function saveUser(req, res) {
    const n = Number((req.body as { n?: unknown }).n);
    const { rows } = await pool.query<{ n: number }>(`SELECT $1::int AS n, pg_sleep(${(n % 3) / 100})`, [n]);
    res.json({ n: rows[0]?.n, id: req.params['id'] });
  });
  app.use('/api/users', users);
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
async function serve(options: { readonly errorPage?: boolean } = {}): Promise<{ port: number; profiler: StartedProfiler }> {
  const prefix = testKeyPrefix();
  prefixes.push(prefix);
  const middleware = loupe({ env: { ...process.env, REDIS_PREFIX: prefix, NODE_ENV: 'development' }, log: () => undefined });
  const server = http.createServer(application(middleware, options));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await middleware.close();
  });
  const profiler = await middleware.start();
  if (profiler === null) throw new Error('The profiler is off.');
  return { port: (server.address() as AddressInfo).port, profiler };
}

/** The stored profile of `token`, once written. */
async function stored(profiler: StartedProfiler, token: unknown): Promise<Profile> {
  if (typeof token !== 'string') throw new Error('No X-Debug-Token.');
  for (let attempt = 0; attempt < 200; attempt++) {
    await profiler.writer.whenIdle();
    const found = await profiler.storage.read(token);
    if (found.kind === 'found') {
      const parsed = parseProfile(found.json);
      if (parsed.ok) return parsed.profile;
      throw new Error(parsed.error);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`The profile ${token} was not stored.`);
}

const entry = (profile: Profile, name: string): Record<string, unknown> => profile.collectors[name] as Record<string, unknown>;

function postJson(port: number, path: string, body: unknown): ReturnType<typeof httpRequest> {
  return httpRequest(port, { method: 'POST', path, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

test('an HTML page of res.send() carries its token and link, and the toolbar with a corrected length', async (t) => {
  const { port } = await serve();
  const page = await httpRequest(port, { path: '/page' });
  t.is(page.status, 200);
  t.is(page.headers['x-stamp'], '1');
  t.regex(String(page.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  t.is(page.headers['x-debug-token-link'], `http://127.0.0.1:${port}/_profiler/${String(page.headers['x-debug-token'])}`);
  t.true(page.body.includes('id="loupe-wdt-'), 'the toolbar is in the page');
  t.true(page.body.indexOf('loupe-wdt-') < page.body.indexOf('</body>'));
  t.is(Number(page.headers['content-length']), Buffer.byteLength(page.body));
  t.is(page.headers['etag'], undefined, 'the ETag Express set no longer matches the body');
});

test('the profile names the route pattern with its router\'s mount path and the handler, holds the middleware, handler and response states, and the SQL with its origin', async (t) => {
  const { port, profiler } = await serve();
  const res = await postJson(port, '/api/users/42', { n: 7 });
  t.is(res.status, 200);
  t.deepEqual(JSON.parse(res.body), { n: 7, id: '42' });
  const profile = await stored(profiler, res.headers['x-debug-token']);
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

test('an error thrown by an async handler is in the profile without an error middleware: 500, its message and a frame in this file', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/fail' });
  t.is(res.status, 500);
  const profile = await stored(profiler, res.headers['x-debug-token']);
  t.is(profile.statusCode, 500);
  t.like(entry(profile, 'router'), { route: 'GET /fail', controller: 'failLater' });
  const { errors } = entry(profile, 'exception') as { errors: { message: string; trace: { file: string }[] }[] };
  t.deepEqual(
    errors.map((error) => error.message),
    ['The handler failed later.'],
  );
  t.true(errors[0]?.trace.some((frame) => /express-adapter-http\.test\.ts$/.test(frame.file)), JSON.stringify(errors[0]?.trace));
});

test('errors() mounted before the application\'s error page records the error once and passes it on', async (t) => {
  const { port, profiler } = await serve({ errorPage: true });
  const res = await httpRequest(port, { path: '/fail' });
  t.is(res.status, 503);
  t.is(res.body, 'Sorry: The handler failed later.');
  const profile = await stored(profiler, res.headers['x-debug-token']);
  const { errors } = entry(profile, 'exception') as { errors: { message: string }[] };
  t.deepEqual(
    errors.map((error) => error.message),
    ['The handler failed later.'],
  );
  t.true(JSON.stringify(entry(profile, 'timeline')).includes('"error handler"'));
});

test('a request no route answers is the final handler\'s 404, with no route and no error', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/nowhere' });
  t.is(res.status, 404);
  const profile = await stored(profiler, res.headers['x-debug-token']);
  t.is(profile.statusCode, 404);
  t.is(entry(profile, 'router')['route'], null);
  t.deepEqual((entry(profile, 'exception') as { errors: unknown[] }).errors, []);
});

test('24 concurrent requests through a shared pool, their bodies parsed first: each profile holds exactly its own query', async (t) => {
  const { port, profiler } = await serve();
  const responses = await Promise.all(Array.from({ length: 24 }, (_, n) => postJson(port, `/api/users/${n}`, { n })));
  for (const [n, res] of responses.entries()) {
    t.is(res.status, 200, `request ${n}`);
    const profile = await stored(profiler, res.headers['x-debug-token']);
    const { queries } = entry(profile, 'db') as { queries: { params: unknown[] }[] };
    t.deepEqual(
      queries.map((query) => query.params),
      [[n]],
      `request ${n}`,
    );
  }
});

test('the application answers the profiler\'s pages before its routes, none of them profiled, and refuses a foreign Host', async (t) => {
  const { port } = await serve();
  const page = await httpRequest(port, { path: '/page' });
  const token = String(page.headers['x-debug-token']);
  let panel = await httpRequest(port, { path: `/_profiler/${token}` });
  for (let attempt = 0; attempt < 50 && panel.status === 404; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    panel = await httpRequest(port, { path: `/_profiler/${token}` });
  }
  t.is(panel.status, 200);
  t.true(panel.body.includes('/page'));
  t.is(panel.headers['x-debug-token'], undefined);
  t.is(panel.headers['x-stamp'], undefined, 'no middleware of the application ran');
  const json = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
  t.is((JSON.parse(json.body) as { token: string }).token, token);
  const refused = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Host: 'rebound.example' } });
  t.is(refused.status, 403);
});

test('with NODE_ENV=production the middleware only passes requests on', async (t) => {
  const middleware = loupe({ env: { NODE_ENV: 'production' } });
  t.is(await middleware.start(), null);
  const server = http.createServer(application(middleware));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const page = await httpRequest(port, { path: '/page' });
    t.is(page.body, PAGE);
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
