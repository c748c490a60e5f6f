import { execFile } from 'node:child_process';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import pg from 'pg';
import { startProfiler, type ProfiledRequest, type StartedProfiler } from '../../../src/profiler/core';
import { type Profile } from '../../../src/profiler/profile';
import { parseProfile } from '../../../src/profiler/profile-schema';
import { httpRequest } from '../../helpers/http-client';
import { abandonedProfile, adapterRedisEnv } from '../../helpers/adapter-test-bed';
import { deleteKeys } from '../../helpers/test-server';
import { testKeyPrefix } from '../../helpers/test-redis';
import { TYPESCRIPT } from '../../helpers/typescript-loader';
import { deferred } from '../../helpers/deferred';

/** Resolved once the handler of `/hang` has started. */
const hangReached = deferred();

/*
 * The profiler core driven by a plain node:http server, as an adapter of another framework
 * drives it: a handle per request, its states and route set by the server, the application's
 * SQL captured into it, its token on the response, its profile stored in Redis.
 */

const prefix = testKeyPrefix();
let profiler: StartedProfiler;
let server: http.Server;
let port: number;
let pool: pg.Pool;

/** The application: `/users/{id}` reads a row, `/fail` throws, `/hang` never answers. */
async function handle(req: http.IncomingMessage, res: http.ServerResponse, request: ProfiledRequest): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://app');
  const send = (status: number, type: string, body: string): void => {
    const token = request.respond(status);
    if (token !== null) res.setHeader('X-Debug-Token', token);
    res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) }).end(body);
  };
  request.enter('handler');
  if (url.pathname.startsWith('/users/')) {
    request.setRoute('GET /users/:id', 'users.show');
    const { rows } = await pool.query<{ n: number }>('SELECT $1::int AS n', [Number(url.pathname.slice(7))]);
    request.log('info', 'Read a user.', { id: rows[0]?.n });
    send(200, 'application/json', JSON.stringify(rows[0]));
    return;
  }
  if (url.pathname === '/fail') {
    request.setRoute('GET /fail', 'fail');
    try {
      throw new Error('The handler failed.');
    } catch (error) {
      request.fail(error);
      send(500, 'text/plain', 'failed');
    }
    return;
  }
  if (url.pathname === '/hang') {
    hangReached.resolve();
    return;
  }
  send(404, 'text/plain', 'not found');
}

/** The Redis of the tests, named explicitly: without REDIS_URL the profiler keeps its profiles in memory. */
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

test.before(async () => {
  profiler = await startProfiler({ env: adapterRedisEnv(prefix), log: () => undefined });
  pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres', max: 2 });
  server = http.createServer((req, res) => {
    const request = profiler.startRequest({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, remoteAddress: req.socket.remoteAddress ?? '' });
    res.on('close', () => request.end(res.writableFinished ? { status: res.statusCode, headers: res.getHeaders() } : null));
    request.run(() => handle(req, res, request)).catch((error: unknown) => res.destroy(error instanceof Error ? error : undefined));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

test.after.always(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
  await profiler?.close();
  await pool?.end();
  await deleteKeys(REDIS_URL, prefix);
});

/** The stored profile of `token`, once the writer stored it. */
async function stored(token: string): Promise<Profile> {
  for (let attempt = 0; attempt < 200; attempt++) {
    await profiler.writer.whenIdle();
    const found = await profiler.storage.read(token);
    if (found.kind === 'found') {
      const parsed = parseProfile(found.json);
      if (!parsed.ok) throw new Error(`The profile ${token} does not read back: ${parsed.error}`);
      return parsed.profile;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`The profile ${token} was not stored.`);
}

const entry = (profile: Profile, name: string): Record<string, unknown> => profile.collectors[name] as Record<string, unknown>;

test('a request of a plain node:http server gets a token, and its profile holds its route, states, log and the SQL it ran', async (t) => {
  const res = await httpRequest(port, { path: '/users/7?tab=posts', headers: { Authorization: 'Bearer SECRETCORETOKEN1' } });
  t.is(res.status, 200);
  const token = res.headers['x-debug-token'];
  t.regex(String(token), /^[0-9a-f]{6}$/);
  const profile = await stored(String(token));
  t.like(profile, { method: 'GET', statusCode: 200, type: 'main', aborted: false });
  t.true(profile.url.endsWith('/users/7?tab=posts'), profile.url);
  t.like(entry(profile, 'router'), { route: 'GET /users/:id', controller: 'users.show' });
  const db = entry(profile, 'db') as { queries: { sql: string; params: unknown[]; origin: { file: string } | null }[] };
  t.deepEqual(
    db.queries.map((query) => [query.sql, query.params]),
    [['SELECT $1::int AS n', [7]]],
  );
  t.regex(db.queries[0]?.origin?.file ?? '', /start-profiler-http\.test\.ts$/);
  const logs = entry(profile, 'logs') as { records: { message: string }[] };
  t.true(logs.records.some((record) => record.message === 'Read a user.'));
  const timeline = JSON.stringify(entry(profile, 'timeline'));
  for (const state of ['"request"', '"handler"', '"sql SELECT"']) t.true(timeline.includes(state), `${state} in the timeline`);
  t.false(JSON.stringify(profile).includes('SECRETCORETOKEN1'), 'the Authorization header is redacted');
});

test('an error the server records is in the Exception panel\'s data, with its stack', async (t) => {
  const res = await httpRequest(port, { path: '/fail' });
  t.is(res.status, 500);
  const profile = await stored(String(res.headers['x-debug-token']));
  const { errors } = entry(profile, 'exception') as { errors: { message: string; trace: { file: string }[] }[] };
  t.is(errors[0]?.message, 'The handler failed.');
  t.regex(errors[0]?.trace[0]?.file ?? '', /start-profiler-http\.test\.ts$/);
  t.is(profile.statusCode, 500);
});

test('a client that leaves before the answer leaves an aborted profile, and the server keeps serving', async (t) => {
  const aborted = await abandonedProfile(profiler, port, '/hang', hangReached.promise);
  t.like(aborted, { aborted: true, statusCode: 0 });
  t.is((await httpRequest(port, { path: '/users/1' })).status, 200);
});

test('the core loads no WebSocket server (uWebSockets.js, ws), nor the kernel\'s machine, server, router, sessions or security: XState only for its own writer', async (t) => {
  t.timeout(60_000);
  const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT, path.resolve(__dirname, '..', '..', 'fixtures', 'loaded-by-profiler-core.ts')], {
    cwd: path.resolve(__dirname, '..', '..', '..'),
    env: { ...process.env, REDIS_URL, REDIS_PREFIX: `${prefix}fixture:` },
  });
  const loaded = stdout.split('\n').filter((line) => line !== '');
  t.true(loaded.includes('src/profiler/core/index.ts'), 'the fixture ran');
  t.true(loaded.includes('node_modules/ioredis'));
  for (const file of loaded) {
    t.false(/uWebSockets|uwebsockets|(^|\/)node_modules\/ws(\/|$)|^machines\/(?!profile-writer\.machine\.ts$)|^src\/kernel\/(kernel|kernel-machine|exchange|dispatch-phase)\.ts$|^src\/(server|session|security)\/|^src\/routing\/(url-matcher-router|chain-router|router-listener|compiled-routes)\.ts$/.test(file), `${file} was loaded`);
  }
  // Read from the process itself: no native addon of uWebSockets.js is mapped into it.
  t.false(loaded.some((file) => file.endsWith('.node')), 'no native addon');
});

test('without REDIS_URL the core keeps its profiles in memory and loads no Redis client at all', async (t) => {
  t.timeout(60_000);
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['REDIS_URL'];
  delete env['REDIS_CLUSTER_NODES'];
  const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT, path.resolve(__dirname, '..', '..', 'fixtures', 'loaded-by-profiler-core.ts')], { cwd: path.resolve(__dirname, '..', '..', '..'), env });
  const loaded = stdout.split('\n').filter((line) => line !== '');
  t.true(loaded.includes('src/profiler/storage/memory-profile-storage.ts'), 'the profiles went to memory');
  t.false(loaded.includes('node_modules/ioredis'), 'ioredis was not loaded');
  t.false(loaded.some((file) => /^src\/redis\/|redis-profile-storage|token-allocator/.test(file)), 'nothing of Loupe\'s Redis side was loaded');
});
