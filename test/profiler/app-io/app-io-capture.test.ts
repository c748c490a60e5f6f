import test from 'ava';
import http from 'node:http';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@redis/client';
import { createClient as createClient6 } from 'redis-client-6';
import Redis from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { currentRequest, LoupeResponse, type Profile, type RouteDefinition } from '../../../src';
import {
  DATABASE_COLLECTOR,
  HTTP_CLIENT_COLLECTOR,
  REDIS_COLLECTOR,
  type DatabaseCollectorData,
  type HttpClientCollectorData,
  type RedisCollectorData,
} from '../../../src/profiler/collect/collectors/app-io-collectors';
import { RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';
import { httpRequest } from '../../helpers/http-client';
import { profiledRequest, startIoApp, startUpstream, type IoApp } from './io-app';

/*
 * The application's own I/O, captured with no code of the application's: real fetch and
 * node:http calls to a local upstream, a real Redis through the application's own ioredis
 * client, real PostgreSQL through pg and real MariaDB through mysql2.
 */

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const run = randomBytes(3).toString('hex');
const table = `loupe_io_${run}`;
const keyPrefix = `loupe-test-io:${run}:`;

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let redis: Redis;
let pgPool: pg.Pool;
let myPool: mysql.Pool;
const apps: IoApp[] = [];

const db = (profile: Profile) => profile.collectors['db'] as unknown as DatabaseCollectorData;
const httpCalls = (profile: Profile) => profile.collectors['http_client'] as unknown as HttpClientCollectorData;
/** node-redis in both majors Loupe supports: 5 (`@redis/client`) and 6 (pinned as `redis-client-6`). */
const NODE_REDIS_CLIENTS: readonly (readonly [string, typeof createClient])[] = [
  ['@redis/client 5', createClient],
  ['@redis/client 6', createClient6 as unknown as typeof createClient],
];

const redisCommands = (profile: Profile) => profile.collectors['redis'] as unknown as RedisCollectorData;

function route(name: string, handle: (params: Readonly<Record<string, string>>) => Promise<unknown>): RouteDefinition {
  return { name, path: `/${name}/{id}`, methods: ['GET'], controller: { name, handle: async ({ params }) => LoupeResponse.json((await handle(params)) ?? { ok: true }) } };
}

async function app(routes: readonly RouteDefinition[], env: Readonly<Record<string, string>> = {}): Promise<IoApp> {
  const io = await startIoApp(routes, env);
  apps.push(io);
  return io;
}

test.before(async (t) => {
  upstream = await startUpstream();
  redis = new Redis(REDIS_URL, { lazyConnect: true });
  try {
    await redis.connect();
  } catch (error) {
    t.fail(`No Redis at ${REDIS_URL}: start one with scripts/ensure-redis.sh (${String(error)}).`);
  }
  pgPool = new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 4 });
  try {
    await pgPool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text, password text)`);
    await pgPool.query(`INSERT INTO ${table} SELECT g, 'user' || g, 'pw' FROM generate_series(1, 60) g`);
  } catch (error) {
    throw new Error(`PostgreSQL at 127.0.0.1:5432 (database test, trust) did not answer: start it with pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start (${String(error)}).`);
  }
  myPool = mysql.createPool({ host: '127.0.0.1', port: 3306, user: 'root', database: 'test', connectionLimit: 4 });
  try {
    await myPool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name varchar(40))`);
    await myPool.query(`INSERT INTO ${table} VALUES (1, 'one'), (2, 'two')`);
  } catch (error) {
    throw new Error(`MariaDB at 127.0.0.1:3306 (root, database test) did not answer: start it with start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd (${String(error)}).`);
  }
});

test.after.always(async () => {
  for (const io of apps) await io.close();
  await pgPool?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await myPool?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await pgPool?.end();
  await myPool?.end();
  if (redis !== undefined) {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
  await upstream?.close();
});

test.serial('a controller’s fetch and node:http calls, Redis commands and SQL through pg and mysql2 are in its profile, each with its duration, outcome and origin', async (t) => {
  const io = await app([
    route('all', async ({ id }) => {
      const response = await fetch(`${upstream.url}/json?id=${id}`, { method: 'POST', body: 'hello', headers: { 'X-Note': 'n' } });
      await response.text();
      await new Promise<void>((resolve, reject) => http.get(`${upstream.url}/status/503`, (res) => res.resume().on('end', resolve)).on('error', reject));
      await redis.set(`${keyPrefix}${id}`, 'cached');
      await redis.multi().get(`${keyPrefix}${id}`).incr(`${keyPrefix}n`).exec();
      const { rows } = await pgPool.query(`SELECT name FROM ${table} WHERE id = $1`, [Number(id)]);
      const [found] = await myPool.query(`SELECT name FROM ${table} WHERE id = ?`, [1]);
      return { pg: rows, mysql: found };
    }),
  ]);
  const { status, profile } = await profiledRequest(io, { path: '/all/7' });
  t.is(status, 200);
  const calls = httpCalls(profile).calls;
  t.is(calls.length, 2);
  t.like(calls[0], { client: 'fetch', method: 'POST', url: `${upstream.url}/json?id=7`, status: 200, error: null, requestSize: 5 });
  t.is(calls[0]?.requestHeaders['x-note'], 'n');
  t.is(calls[0]?.responseHeaders['content-type'], 'application/json');
  t.like(calls[1], { client: 'http', method: 'GET', url: `${upstream.url}/status/503`, status: 503, error: null });
  for (const call of calls) {
    t.true(typeof call.duration === 'number' && call.duration >= 0);
    t.regex(call.origin?.file ?? JSON.stringify(call), /app-io-capture\.test\.ts$/);
  }
  const commands = redisCommands(profile).commands.map((command) => [command.command, command.args.join(' ')]);
  t.deepEqual(commands, [
    ['SET', `${keyPrefix}7 ?`],
    ['TRANSACTION', ''],
    ['MULTI', ''],
    ['GET', `${keyPrefix}7`],
    ['INCR', `${keyPrefix}n`],
    ['EXEC', ''],
  ]);
  t.is(redisCommands(profile).commands[1]?.batch, 2);
  const { queries, count } = db(profile);
  t.is(count, 2);
  t.like(queries[0], { driver: 'pg', sql: `SELECT name FROM ${table} WHERE id = $1`, params: [7], database: 'test', rows: 1, error: null });
  t.like(queries[1], { driver: 'mysql2', database: 'test', rows: 1, error: null });
  t.regex(queries[1]?.sql ?? '', new RegExp(`SELECT name FROM ${table} WHERE id = `));
  for (const query of queries) t.regex(query.origin?.file ?? '', /app-io-capture\.test\.ts$/);
  const spans = (profile.collectors['timeline'] as { spans: { category: string; name: string }[] }).spans;
  t.true(spans.some((span) => span.category === 'db' && span.name === `sql SELECT ${table}`));
  t.true(spans.some((span) => span.category === 'http' && span.name.startsWith('POST ')));
  t.true(spans.some((span) => span.category === 'cache' && span.name === 'redis SET'));
});

test.serial('failed calls record their error; the server keeps serving', async (t) => {
  const closed = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const io = await app([
    route('fail', async () => {
      await fetch(`http://127.0.0.1:${closed}/nothing`).catch(() => undefined);
      await pgPool.query('SELEC 1').catch(() => undefined);
      await myPool.query('SELEC 1').catch(() => undefined);
      await redis.call('NOSUCHCOMMAND').catch(() => undefined);
    }),
  ]);
  const { profile } = await profiledRequest(io, { path: '/fail/1' });
  t.regex(httpCalls(profile).calls[0]?.error ?? '', /ECONNREFUSED/);
  t.is(httpCalls(profile).errors, 1);
  const queries = db(profile).queries;
  t.is(queries.length, 2);
  t.regex(queries[0]?.error ?? '', /syntax error/i);
  t.regex(queries[1]?.error ?? '', /syntax/i);
  t.regex(redisCommands(profile).commands[0]?.error ?? '', /unknown command/i);
  t.is((await httpRequest(io.port, { path: '/fail/2' })).status, 200);
});

test.serial('Loupe’s own Redis commands (sessions, the profile writer) are never counted as the application’s', async (t) => {
  const io = await app([
    {
      name: 'session',
      path: '/session/{id}',
      methods: ['GET'],
      controller: {
        name: 'session',
        handle: async ({ session }) => {
          await session?.start();
          session?.set('visits', Number(session.get('visits') ?? 0) + 1);
          return LoupeResponse.json({ ok: true });
        },
      },
    },
  ]);
  const first = await profiledRequest(io, { path: '/session/1' });
  const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  const { profile } = await profiledRequest(io, { path: '/session/1', headers: { Cookie: cookie } });
  const timeline = (profile.collectors['timeline'] as { spans: { category: string }[] }).spans;
  t.true(timeline.some((span) => span.category === 'session'), 'the session did load from Redis');
  t.is(redisCommands(profile).count, 0);
  t.deepEqual(redisCommands(profile).commands, []);
});

test.serial('50 concurrent requests doing different I/O through shared pools: each profile holds exactly its own calls', async (t) => {
  const io = await app([
    route('mixed', async ({ id }) => {
      const n = Number(id);
      if (n % 2 === 0) await (await fetch(`${upstream.url}/json?ms=${n % 7}&id=${id}`)).text();
      await redis.get(`${keyPrefix}mixed:${id}`);
      await pgPool.query(`SELECT $1::int AS id, pg_sleep(0.002)`, [n]);
      if (n % 3 === 0) await myPool.query('SELECT ? AS id', [n]);
    }),
  ]);
  const ids = Array.from({ length: 50 }, (_, i) => i + 1);
  const results = await Promise.all(ids.map((id) => profiledRequest(io, { path: `/mixed/${id}` })));
  for (const [index, { profile }] of results.entries()) {
    const id = ids[index] ?? 0;
    const calls = httpCalls(profile).calls;
    t.deepEqual(calls.map((call) => call.url), id % 2 === 0 ? [`${upstream.url}/json?ms=${id % 7}&id=${id}`] : [], `request ${id}: its fetch only`);
    t.deepEqual(redisCommands(profile).commands.map((command) => command.args[0]), [`${keyPrefix}mixed:${id}`], `request ${id}: its Redis GET only`);
    const queries = db(profile).queries;
    t.deepEqual(queries.filter((query) => query.driver === 'pg').map((query) => query.params), [[id]], `request ${id}: its pg query only`);
    t.deepEqual(queries.filter((query) => query.driver === 'mysql2').map((query) => query.params), id % 3 === 0 ? [[id]] : [], `request ${id}: its mysql2 query only`);
  }
});

test.serial('a client gone mid-query: the late end of its query lands in no other profile and crashes nothing', async (t) => {
  const io = await app([
    route('slowquery', async () => {
      await pgPool.query('SELECT pg_sleep(0.4) AS slept');
    }),
    route('quick', async ({ id }) => {
      await pgPool.query('SELECT $1::int AS quick', [Number(id)]);
    }),
  ]);
  // The client sends the request and leaves 50 ms later, while the query runs.
  await new Promise<void>((resolve) => {
    const socket = net.connect(io.port, '127.0.0.1', () => socket.write('GET /slowquery/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'));
    setTimeout(() => {
      socket.destroy();
      resolve();
    }, 50);
  });
  const during = await profiledRequest(io, { path: '/quick/1' });
  await sleep(500);
  const after = await profiledRequest(io, { path: '/quick/2' });
  for (const { profile } of [during, after]) {
    t.deepEqual(db(profile).queries.map((query) => query.sql), ['SELECT $1::int AS quick']);
  }
  t.is(after.status, 200);
});

test.serial('queries and calls made outside any request (start-up, a timer) are recorded in no profile', async (t) => {
  const io = await app([route('idle', async () => undefined)]);
  await pgPool.query('SELECT 1 AS at_startup');
  await redis.get(`${keyPrefix}startup`);
  const timer = setInterval(() => {
    pgPool.query('SELECT 2 AS in_a_timer').catch(() => undefined);
    redis.get(`${keyPrefix}timer`).catch(() => undefined);
  }, 2);
  try {
    for (let i = 0; i < 5; i++) {
      const { profile } = await profiledRequest(io, { path: `/idle/${i}` });
      t.is(db(profile).count, 0);
      t.is(redisCommands(profile).count, 0);
    }
  } finally {
    clearInterval(timer);
  }
});

test.serial('PROFILER_MAX_ENTRIES bounds each kind per request and counts the rest; N+1 and duplicates are flagged', async (t) => {
  const io = await app(
    [
      route('loop', async () => {
        for (let id = 1; id <= 8; id++) await pgPool.query(`SELECT name FROM ${table} WHERE id = $1`, [id]);
      }),
    ],
    { PROFILER_MAX_ENTRIES: '5' },
  );
  const { profile } = await profiledRequest(io, { path: '/loop/1' });
  const data = db(profile);
  t.is(data.queries.length, 5);
  t.is(data.count, 8);
  t.is(data.dropped, 3);
  t.is(data.nPlusOne, 1);
  t.is(data.duplicates, 0);
  const dup = await app([
    route('dup', async () => {
      for (let i = 0; i < 2; i++) await pgPool.query(`SELECT name FROM ${table} WHERE id = $1`, [1]);
    }),
  ]);
  const again = db((await profiledRequest(dup, { path: '/dup/1' })).profile);
  t.is(again.duplicates, 1);
  t.is(again.nPlusOne, 0);
});

test.serial('PROFILER_CAPTURE=none captures nothing; currentRequest() still answers in the controller and three calls deep', async (t) => {
  const deep = async (): Promise<string> => {
    await sleep(1);
    const request = currentRequest();
    request?.log('info', 'Three calls deep.');
    return request?.request.path ?? 'none';
  };
  const io = await app(
    [
      route('none', async () => {
        await pgPool.query('SELECT 1');
        await redis.get(`${keyPrefix}none`);
        return { path: await (async () => deep())() };
      }),
    ],
    { PROFILER_CAPTURE: 'none' },
  );
  const { body, profile } = await profiledRequest(io, { path: '/none/1' });
  t.deepEqual(JSON.parse(body), { path: '/none/1' });
  t.is(db(profile).count, 0);
  t.is(redisCommands(profile).count, 0);
  const logs = (profile.collectors['logs'] as { records: { message: string }[] }).records;
  t.true(logs.some((record) => record.message === 'Three calls deep.'));
  t.is(currentRequest(), undefined);
});

/**
 * Each form a secret can be bound by in SQL, as a statement and its parameters, for a driver's
 * placeholders (`$1` or `?`); `m` is the form's marker, which the profile must not keep. Forms a
 * server refuses are sent all the same: their error message must not keep the marker either.
 */
function secretForms(m: string, p: (n: number) => string): [string, unknown[]][] {
  const t = table;
  return [
    [`SELECT id FROM ${t} WHERE password IN ('${m}IN', ${p(1)})`, [`${m}INPARAM`]],
    [`SELECT id FROM ${t} WHERE password NOT LIKE '${m}NOTLIKE%'`, []],
    [`SELECT id FROM ${t} WHERE password ~ '${m}TILDE'`, []],
    [`SELECT id FROM ${t} WHERE password SIMILAR TO '${m}SIMILAR'`, []],
    [`SELECT id FROM ${t} WHERE ${p(1)} = password`, [`${m}REVERSED`]],
    [`SELECT id FROM ${t} WHERE password = ANY(${p(1)})`, [[`${m}ANY`]]],
    [`SELECT id FROM ${t} WHERE password = E'${m}ESTRING'`, []],
    [`SELECT id FROM ${t} WHERE password = $$${m}DOLLAR$$`, []],
    [`SELECT id FROM ${t} WHERE password = $q$${m}TAGGED$q$`, []],
    [`SELECT id FROM ${t} WHERE password = (${p(1)})`, [`${m}PAREN`]],
    [`SELECT id FROM ${t} WHERE password = CAST(${p(1)} AS char(40))`, [`${m}CAST`]],
    [`SELECT id FROM ${t} WHERE lower(password) = ${p(1)}`, [`${m}LOWERCOL`]],
    [`SELECT id FROM ${t} WHERE password = lower(${p(1)})`, [`${m}LOWERVAL`]],
    [`SELECT id FROM ${t} WHERE password IS DISTINCT FROM ${p(1)}`, [`${m}DISTINCT`]],
    [`SELECT id FROM ${t} WHERE password BETWEEN ${p(1)} AND '${m}BETWEEN2'`, [`${m}BETWEEN1`]],
    [`INSERT INTO ${t} (id, name, password) SELECT 500, 'n', ${p(1)} WHERE 1 = 0`, [`${m}INSERTSELECT`]],
    [`INSERT INTO ${t}_tokens VALUES (1, '${m}NOCOLUMNS')`, []],
    [`INSERT INTO ${t} (name, email, password) VALUES (${p(1)}, ${p(2)}, ${p(3)})`, ['n', 'e', `${m}VALUES`]],
    // The server repeats the value in its error (pg: invalid input syntax for type integer: "…").
    [`SELECT id FROM ${t} WHERE password = ${p(1)} AND id = ${p(2)}`, ['x', `${m}ERRORMESSAGE`]],
    [`SELECT crypt('${m}CRYPT', gen_salt('bf'))`, []],
  ];
}

test.serial('a password bound to a secret column, a token in an outgoing URL or header and a Redis value are never stored; harmless values are', async (t) => {
  const attempt = async (run: () => Promise<unknown>): Promise<void> => {
    try {
      await run();
    } catch {
      // A form the server refuses is sent all the same: what its error says is checked below.
    }
  };
  const io = await app([
    route('secrets', async () => {
      await pgPool.query(`SELECT id FROM ${table} WHERE name = $1`, ['VISIBLENAME']);
      await pgPool.query(`SELECT id FROM ${table} WHERE name = $1 AND password = $2`, ['n', 'SECRETPGPARAM']);
      await pgPool.query(`UPDATE ${table} SET password = 'SECRETPGLITERAL' WHERE id = 0`);
      await myPool.query(`SELECT id FROM ${table} WHERE name = ? AND name <> ?`, ['VISIBLEMY', 'x']);
      await myPool.execute(`INSERT INTO ${table} (id, name) VALUES (?, ?) ON DUPLICATE KEY UPDATE name = name`, [99, 'VISIBLEINSERT']);
      for (const [sql, params] of secretForms('SECRETPG', (n) => `$${n}`)) await attempt(() => pgPool.query(sql, params));
      for (const [sql, params] of secretForms('SECRETMYQ', () => '?')) await attempt(() => myPool.query(sql, params));
      for (const [sql, params] of secretForms('SECRETMYX', () => '?')) await attempt(() => myPool.execute(sql, params as never));
      await (await fetch(`${upstream.url}/json?access_token=SECRETURLTOKEN&page=VISIBLEPAGE`, { headers: { Authorization: 'Bearer SECRETBEARER', 'X-Api-Key': 'SECRETAPIKEY' } })).text();
      await redis.set(`${keyPrefix}secret`, 'password=SECRETREDISVALUE');
      await redis.eval('return ARGV[1]', 1, `${keyPrefix}evalkey`, 'SECRETEVALARG');
      // Redis repeats an unknown command's arguments in its error, which ioredis had shown as `?`.
      await attempt(() => redis.call('LOUPE.UNKNOWN', 'SECRETREDISERRORARG'));
    }),
  ]);
  const { profile } = await profiledRequest(io, { path: '/secrets/1' });
  const stored = JSON.stringify(profile);
  const planted = ['SECRETPGPARAM', 'SECRETPGLITERAL', 'SECRETURLTOKEN', 'SECRETBEARER', 'SECRETAPIKEY', 'SECRETREDISVALUE', 'SECRETEVALARG', 'SECRETREDISERRORARG'];
  for (const prefix of ['SECRETPG', 'SECRETMYQ', 'SECRETMYX']) {
    for (const [sql, params] of secretForms(prefix, () => '?')) planted.push(...(`${sql} ${JSON.stringify(params)}`.match(/SECRET[A-Z0-9]+/g) ?? []));
  }
  t.true(planted.length > 60, `${planted.length} markers`);
  for (const secret of planted) t.false(stored.includes(secret), `${secret} was stored`);
  for (const visible of ['VISIBLENAME', 'VISIBLEMY', 'VISIBLEPAGE', 'VISIBLEINSERT', `${keyPrefix}evalkey`]) t.true(stored.includes(visible), `${visible} is missing`);
  // The forms did run: pg's error quoted a planted value, which the profile shows replaced.
  t.true(db(profile).queries.some((query) => query.error?.includes('invalid input syntax') === true), 'pg refused the marker as an integer');
  const { commands } = profile.collectors[REDIS_COLLECTOR] as { commands: { command: string; error: string | null }[] };
  t.regex(commands.find((command) => command.command === 'LOUPE.UNKNOWN')?.error ?? '', /unknown command '\?', with args beginning with: '\?'/, 'Redis refused the command; its error keeps no argument');
  // These collectors redact every string themselves: a last pass over their entries finds nothing left.
  const policy = new RedactionPolicy();
  for (const name of [DATABASE_COLLECTOR, HTTP_CLIENT_COLLECTOR, REDIS_COLLECTOR]) t.is(policy.entry(profile.collectors[name]), profile.collectors[name], `${name}: redacting it again changes nothing`);
});

test.serial('node-redis (@redis/client) commands are captured as the application’s too', async (t) => {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    const io = await app([
      route('noderedis', async ({ id }) => {
        await client.set(`${keyPrefix}nr:${id}`, 'password=SECRETNODEREDIS');
        return { value: (await client.get(`${keyPrefix}nr:${id}`)) !== null };
      }),
    ]);
    const { profile } = await profiledRequest(io, { path: '/noderedis/3' });
    const commands = redisCommands(profile).commands;
    t.deepEqual(commands.map((command) => [command.client, command.command, command.args.join(' ')]), [
      ['node-redis', 'SET', `${keyPrefix}nr:3 ?`],
      ['node-redis', 'GET', `${keyPrefix}nr:3`],
    ]);
    for (const command of commands) t.regex(command.origin?.file ?? '', /app-io-capture\.test\.ts$/);
    t.false(JSON.stringify(profile).includes('SECRETNODEREDIS'));
  } finally {
    await client.del(`${keyPrefix}nr:3`);
    await client.quit();
  }
});

for (const [name, createRedisClient] of NODE_REDIS_CLIENTS) {
  test.serial(`${name}: a MULTI is a TRANSACTION entry of its size, a pipeline a PIPELINE entry followed by its commands`, async (t) => {
    const client = createRedisClient({ url: REDIS_URL });
    await client.connect();
    const key = `${keyPrefix}nrbatch:${name}`;
    try {
      const io = await app([
        route('batches', async () => {
          await client.multi().incr(key).expire(key, 60).exec();
          await client.multi().incr(key).get(key).execAsPipeline();
          return { ok: true };
        }),
      ]);
      const { profile } = await profiledRequest(io, { path: '/batches/1' });
      const commands = redisCommands(profile).commands;
      t.deepEqual(
        commands.map((command) => [command.client, command.command, command.batch ?? null]),
        [
          ['node-redis', 'TRANSACTION', 2],
          ['node-redis', 'PIPELINE', 2],
          ['node-redis', 'INCR', null],
          ['node-redis', 'GET', null],
        ],
      );
      for (const command of commands) t.regex(command.origin?.file ?? '', /app-io-capture\.test\.ts$/);
      t.true(commands.every((command) => command.duration !== null && command.error === null));
    } finally {
      await client.del(key);
      await client.quit();
    }
  });
}
