import http from 'node:http';
import { type AddressInfo } from 'node:net';
import test from 'ava';
import { loupe, type LoupeMiddleware, type StartedProfiler } from '../../../src/profiler/adapters/express';
import { type Profile } from '../../../src/profiler/profile';
import { adapterTestBed, assertToolbarPage, HTML_PAGE, storedProfile } from '../../helpers/adapter-test-bed';
import { httpRequest } from '../../helpers/http-client';
import { parseServerTiming } from '../../helpers/server-timing';

/*
 * `loupe-kernel/express` on Express 4 (4.22, pinned as `express4`), which has no router tracing
 * channel and does not catch a rejected promise: tokens and the toolbar, the route pattern read
 * once the response is sent, captured SQL, errors passed to next() recorded through errors(), and
 * the final handler's 404. Express 4's API is Express 5's where this test uses it.
 */

// Express 4 under another package name: its API is the one Express 5's types describe, where this test uses it.
const express4 = require('express4') as typeof import('express');
const bed = adapterTestBed(test);

function application(profiler: LoupeMiddleware): ReturnType<typeof express4> {
  const app = express4();
  app.set('env', 'test');
  app.use(profiler);
  app.get('/page', (_req, res) => void res.send(HTML_PAGE));
  const users = express4.Router();
  users.get('/:id', function showUser(req, res, next) {
    bed.pool.query<{ id: number }>('SELECT $1::int AS id', [Number(req.params['id'])]).then(({ rows }) => res.json(rows[0]), next);
  });
  app.use('/api/users', users);
  app.get('/fail', (_req, _res, next) => setImmediate(() => next(new Error('The handler failed in Express 4.'))));
  app.use(profiler.errors());
  return app;
}

async function serve(): Promise<{ port: number; profiler: StartedProfiler }> {
  const middleware = loupe({ env: bed.redisEnv(), log: () => undefined });
  const server = http.createServer(application(middleware));
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

test('the application runs on Express 4', (t) => {
  t.regex((require('express4/package.json') as { version: string }).version, /^4\./);
});

test('an HTML page of Express 4 carries its token and link, and the toolbar with a corrected length', async (t) => {
  const { port } = await serve();
  assertToolbarPage(t, port, await httpRequest(port, { path: '/page' }));
});

test('the profile names the route pattern with its router\'s mount path, and holds the SQL the handler ran, which Server-Timing counts', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/api/users/42' });
  t.is(res.status, 200);
  t.deepEqual(JSON.parse(res.body), { id: 42 });
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.like(entry(profile, 'router'), { route: 'GET /api/users/:id' });
  const db = entry(profile, 'db') as { queries: { sql: string; params: unknown[] }[] };
  t.deepEqual(db.queries.map(({ sql, params }) => [sql, params]), [['SELECT $1::int AS id', [42]]]);
  const timing = parseServerTiming(String(res.headers['server-timing']));
  t.deepEqual(
    timing.map((metric) => metric.name),
    ['request', 'middleware', 'response', 'db', 'total'],
  );
});

test('an error passed to next() is recorded by errors() and answered by Express 4\'s final handler', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/fail' });
  t.is(res.status, 500);
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.is(profile.statusCode, 500);
  const { errors } = entry(profile, 'exception') as { errors: { message: string }[] };
  t.deepEqual(errors.map((error) => error.message), ['The handler failed in Express 4.']);
});

test('a request no route answers is Express 4\'s 404, with no route', async (t) => {
  const { port, profiler } = await serve();
  const res = await httpRequest(port, { path: '/nowhere' });
  t.is(res.status, 404);
  const profile = await storedProfile(profiler, res.headers['x-debug-token']);
  t.is(profile.statusCode, 404);
  t.is(entry(profile, 'router')['route'], null);
});
