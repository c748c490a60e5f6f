import test from 'ava';
import { type Profile } from '../../src';
import { type DatabaseCollectorData, type HttpClientCollectorData, type RedisCollectorData } from '../../src/profiler/collect/collectors/app-io-collectors';
import { httpRequest } from '../helpers/http-client';
import { runServerToExit, spawnServer } from '../helpers/spawn-server';
import { useTestPostgres, type TestPostgres } from '../helpers/test-postgres';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { profiledRequest } from '../profiler/app-io/io-app';

let postgres: TestPostgres | undefined;
let withSql: TestServer | undefined;
let withoutSql: TestServer | undefined;

test.before(async () => {
  postgres = await useTestPostgres();
  withSql = await startTestServer({}, { databaseUrl: postgres.url });
  withoutSql = await startTestServer();
});

test.after.always(async () => {
  await withSql?.close();
  await withoutSql?.close();
  await postgres?.drop();
});

function server(which: TestServer | undefined): TestServer {
  if (which === undefined) throw new Error('The test server did not start (see the before hook).');
  return which;
}

/** Requests `path` of the demo and answers the response with its stored profile. */
function profiled(which: TestServer | undefined, path: string, headers: Readonly<Record<string, string>> = {}) {
  const app = server(which);
  return profiledRequest({ app, port: app.port, close: () => app.close() }, { path, headers });
}

function collector<T>(profile: Profile, name: string): T {
  const data = profile.collectors[name];
  if (data === undefined) throw new Error(`The profile has no "${name}" entry; it has ${Object.keys(profile.collectors).join(', ')}.`);
  return data as T;
}

test('GET /io/upstream calls /api/quote with fetch, and its profile holds the call with its status', async (t) => {
  const { status, body, profile } = await profiled(withSql, '/io/upstream?n=1');
  t.is(status, 200, body);
  const answer = JSON.parse(body) as { status: number; body: { author: string } };
  t.is(answer.status, 200);
  t.is(answer.body.author, 'Edsger Dijkstra');
  const http = collector<HttpClientCollectorData>(profile, 'http_client');
  t.is(http.count, 1);
  const [call] = http.calls;
  t.is(call?.client, 'fetch');
  t.is(call?.method, 'GET');
  t.is(call?.url, `http://127.0.0.1:${server(withSql).port}/api/quote?n=1`);
  t.is(call?.status, 200);
  t.is(call?.error, null);
  t.true((call?.duration ?? -1) >= 0);
  t.regex(call?.origin?.file ?? '', /demo\/controllers\/upstream-controller\.ts$/);
  // The upstream is profiled too, as a request of its own.
  t.regex(call?.responseHeaders['x-debug-token'] ?? '', /^[0-9a-f]{6}$/);
});

test("GET /io/cache/{key} lists the demo's own GET and SET, then a GET that hits, and none of Loupe's session commands", async (t) => {
  const app = server(withSql);
  const key = `k${Date.now()}`;
  const first = await profiled(withSql, `/io/cache/${key}`);
  t.is(first.status, 200, first.body);
  t.like(JSON.parse(first.body), { key, hit: false, lookupsThisSession: 1 });
  const cacheKey = `${app.config.redis.prefix}demo:cache:${key}`;
  const missed = collector<RedisCollectorData>(first.profile, 'redis');
  t.deepEqual(
    missed.commands.map((command) => [command.command, command.args[0]]),
    [
      ['GET', cacheKey],
      ['SET', cacheKey],
    ],
  );
  t.true(missed.commands.every((command) => command.client === 'ioredis' && command.error === null));
  t.regex(missed.commands[0]?.origin?.file ?? '', /demo\/io\/demo-cache\.ts$/);

  // The session was stored by Loupe's own client in the same request, and is in no list.
  const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  t.regex(cookie, /=/);
  const sessionKeys = await app.redis.keys(`${app.config.redis.prefix}session:*`);
  t.true(sessionKeys.length > 0);

  const second = await profiled(withSql, `/io/cache/${key}`, { cookie });
  t.like(JSON.parse(second.body), { key, hit: true, lookupsThisSession: 2 });
  const hit = collector<RedisCollectorData>(second.profile, 'redis');
  t.deepEqual(
    hit.commands.map((command) => [command.command, command.args[0]]),
    [['GET', cacheKey]],
  );
  t.false(JSON.stringify(hit.commands).includes('session:'));
});

test('GET /io/users answers every user from one query, and its profile holds it', async (t) => {
  const { status, body, profile } = await profiled(withSql, '/io/users');
  t.is(status, 200, body);
  const { users } = JSON.parse(body) as { users: { name: string; orders: number }[] };
  t.is(users.length, 5);
  t.like(users[2], { name: 'Grace Hopper', orders: 3 });
  const db = collector<DatabaseCollectorData>(profile, 'db');
  const select = db.queries.filter((query) => query.sql.includes('FROM demo_users u LEFT JOIN demo_orders'));
  t.is(select.length, 1);
  t.is(select[0]?.driver, 'pg');
  t.is(select[0]?.rows, 5);
  t.regex(select[0]?.origin?.file ?? '', /demo\/io\/user-repository\.ts$/);
  t.is(db.nPlusOne, 0);
  t.is(db.errors, 0);
});

test('GET /io/users-n-plus-one sends one query per user from one line, and the profile flags it as N+1', async (t) => {
  const { status, body, profile } = await profiled(withSql, '/io/users-n-plus-one');
  t.is(status, 200, body);
  t.is((JSON.parse(body) as { users: unknown[] }).users.length, 5);
  const db = collector<DatabaseCollectorData>(profile, 'db');
  t.true(db.nPlusOne >= 1);
  const perUser = db.queries.filter((query) => query.sql.includes('FROM demo_orders WHERE user_id = $1'));
  t.is(perUser.length, 5);
  t.deepEqual(
    perUser.map((query) => query.params),
    [[1], [2], [3], [4], [5]],
  );
  t.is(new Set(perUser.map((query) => `${query.origin?.file}:${query.origin?.line}`)).size, 1);
});

test('without DATABASE_URL the SQL routes answer 503 with how to set it, as JSON and as a page', async (t) => {
  const { port } = server(withoutSql);
  for (const path of ['/io/users', '/io/users-n-plus-one']) {
    const json = await httpRequest(port, { path, headers: { accept: 'application/json' } });
    t.is(json.status, 503, path);
    const problem = JSON.parse(json.body) as { error: string; hint: string };
    t.regex(problem.error, /DATABASE_URL is not set/);
    t.regex(problem.hint, /DATABASE_URL=postgres:\/\//);
    const page = await httpRequest(port, { path, headers: { accept: 'text/html' } });
    t.is(page.status, 503, path);
    t.regex(String(page.headers['content-type']), /^text\/html/);
    t.regex(page.body, /set DATABASE_URL/);
  }
  // The other I/O routes need no database.
  t.is((await httpRequest(port, { path: '/io/upstream' })).status, 200);
  const welcome = await httpRequest(port, { path: '/' });
  t.regex(welcome.body, /The SQL routes .* are off: set DATABASE_URL/);
  t.notRegex((await httpRequest(server(withSql).port, { path: '/' })).body, /are off/);
});

test('the demo started without DATABASE_URL says under its listening line how to turn the SQL routes on', async (t) => {
  const demo = await spawnServer({ DATABASE_URL: '', LOG_FORMAT: 'json' });
  try {
    const deadline = Date.now() + 10_000;
    while (!demo.output().includes('DATABASE_URL') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    t.regex(demo.output(), /The SQL routes \(\/io\/users, \/io\/users-n-plus-one\) are off: set DATABASE_URL/);
  } finally {
    await demo.close();
  }
});

test('the demo refuses a DATABASE_URL that is not a postgres:// URL, without repeating it', async (t) => {
  const { code, output } = await runServerToExit({ DATABASE_URL: 'mysql://root:hunter2@127.0.0.1/test' });
  t.is(code, 1);
  t.regex(output, /Loupe could not start: DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/);
  t.notRegex(output, /hunter2/);
});
