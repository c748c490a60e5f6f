import test from 'ava';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { LoupeResponse, type Profile, type RouteDefinition } from '../../../src';
import { type DatabaseCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';
import { REDACTED } from '../../../src/profiler/collect/redaction-policy';
import { httpRequest } from '../../helpers/http-client';
import { profiledRequest, startIoApp, type IoApp } from './io-app';

/*
 * postgres.js (`postgres`) and Drizzle on it, captured with no code of the application's: real
 * PostgreSQL, a real server, the profile read back from Redis.
 */

const run = randomBytes(3).toString('hex');
const table = `loupe_pgjs_${run}`;
const options = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 4, onnotice: () => undefined };
const sql = postgres(options);
const users = pgTable(table, { id: integer('id').primaryKey(), name: text('name'), password: text('password') });
const db = drizzle(sql);
const apps: IoApp[] = [];

/** The ES module build of postgres.js, loaded as an application written in ES modules loads it. */
const esm = require('./postgres-js-esm-queries.mjs') as {
  connect(settings: typeof options): postgres.Sql;
  nameOf(client: postgres.Sql, name: string, id: number): Promise<{ name: string }[]>;
};

const queriesOf = (profile: Profile) => (profile.collectors['db'] as unknown as DatabaseCollectorData).queries;

/** The line of `file` holding `marker`, as an origin names it. */
function lineOf(marker: string, file = __filename): number {
  const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(marker) && !line.includes('lineOf('));
  if (index < 0) throw new Error(`No line holds ${marker}.`);
  return index + 1;
}

function route(name: string, handle: (id: number) => Promise<unknown>): RouteDefinition {
  return { name, path: `/${name}/{id}`, methods: ['GET'], controller: { name, handle: async ({ params }) => LoupeResponse.json((await handle(Number(params['id']))) ?? { ok: true }) } };
}

async function app(routes: readonly RouteDefinition[], env: Readonly<Record<string, string>> = {}): Promise<IoApp> {
  const io = await startIoApp(routes, env);
  apps.push(io);
  return io;
}

test.before(async () => {
  try {
    await sql`CREATE TABLE ${sql(table)} (id int PRIMARY KEY, name text, password text)`;
    await sql`INSERT INTO ${sql(table)} SELECT g, 'user' || g, 'pw' FROM generate_series(1, 20) g`;
  } catch (error) {
    throw new Error(`PostgreSQL at 127.0.0.1:5432 (database test, trust) did not answer: start it with pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start (${String(error)}).`);
  }
});

test.after.always(async () => {
  for (const io of apps) await io.close();
  await sql`DROP TABLE IF EXISTS ${sql(table)}`.catch(() => undefined);
  await sql.end();
});

test.serial('tagged templates, sql.unsafe, transactions and a failing query are in the profile with their text, parameters, rows, error, span and origin', async (t) => {
  const io = await app([
    route('pgjs', async (id) => {
      const found = await sql`SELECT name FROM ${sql(table)} WHERE id = ${id}`; // tagged-line
      await sql.unsafe(`SELECT count(*)::int AS n FROM ${table} WHERE id < $1`, [10]); // unsafe-line
      await sql.begin(async (tx) => { // begin-line
        await tx`UPDATE ${tx(table)} SET name = ${'renamed'} WHERE id = ${id}`; // update-line
      });
      await sql.begin(async (tx) => {
        await tx`SELECT 1 AS one`;
        throw new Error('Undone on purpose.');
      }).catch(() => undefined);
      await sql`SELEC 1`.catch(() => undefined); // failing-line
      return { name: found[0]?.name };
    }),
  ]);
  const { status, body, profile } = await profiledRequest(io, { path: '/pgjs/7' });
  t.is(status, 200);
  t.deepEqual(JSON.parse(body), { name: 'user7' });
  const queries = queriesOf(profile);
  t.deepEqual(
    queries.map((query) => [query.driver, query.sql, query.params, query.rows]),
    [
      ['postgres', `SELECT name FROM "${table}" WHERE id = $1`, [7], 1],
      ['postgres', `SELECT count(*)::int AS n FROM ${table} WHERE id < $1`, [10], 1],
      ['postgres', 'begin ', [], null],
      ['postgres', `UPDATE "${table}" SET name = $1 WHERE id = $2`, ['renamed', 7], 1],
      ['postgres', 'commit', [], null],
      ['postgres', 'begin ', [], null],
      ['postgres', 'SELECT 1 AS one', [], 1],
      ['postgres', 'rollback', [], null],
      ['postgres', 'SELEC 1', [], null],
    ],
  );
  t.deepEqual(queries.map((query) => query.error === null), [true, true, true, true, true, true, true, true, false]);
  t.regex(queries[8]?.error ?? '', /syntax error at or near "SELEC"/);
  t.true(queries.every((query) => typeof query.duration === 'number' && query.duration >= 0));
  const lines = ['tagged-line', 'unsafe-line', 'begin-line', 'update-line'].map((marker) => lineOf(marker));
  t.deepEqual(queries.slice(0, 4).map((query) => query.origin?.line), lines);
  t.is(queries[8]?.origin?.line, lineOf('failing-line'));
  for (const query of queries) t.regex(query.origin?.file ?? JSON.stringify(query), /postgres-js-capture\.test\.ts$/);
  const spans = (profile.collectors['timeline'] as { spans: { category: string; name: string }[] }).spans.filter((span) => span.category === 'db');
  t.deepEqual(spans.map((span) => span.name), [`sql SELECT ${table}`, `sql SELECT ${table}`, 'sql BEGIN', `sql UPDATE ${table}`, 'sql COMMIT', 'sql BEGIN', 'sql SELECT', 'sql ROLLBACK', 'sql SELEC']);
});

test.serial('Drizzle on its postgres-js driver is captured through postgres.js: its select and insert, their parameters and rows', async (t) => {
  const io = await app([
    route('drizzle', async (id) => {
      await db.insert(users).values({ id: 100 + id, name: 'drizzled' });
      const found = await db.select({ name: users.name }).from(users).where(eq(users.id, 100 + id));
      await db.select({ id: users.id }).from(users).where(eq(users.id, id)).execute(); // drizzle-execute-line
      await db.delete(users).where(eq(users.id, 100 + id));
      return { name: found[0]?.name };
    }),
  ]);
  const { body, profile } = await profiledRequest(io, { path: '/drizzle/3' });
  t.deepEqual(JSON.parse(body), { name: 'drizzled' });
  const queries = queriesOf(profile);
  t.deepEqual(
    queries.map((query) => [query.driver, query.sql, query.params, query.rows, query.error]),
    [
      // Drizzle names every column, the password too: the statement's values are hidden, as pg's are.
      ['postgres', `insert into "${table}" ("id", "name", "password") values ($1, $2, default)`, [REDACTED, REDACTED], 1, null],
      ['postgres', `select "name" from "${table}" where "${table}"."id" = $1`, [103], 1, null],
      ['postgres', `select "id" from "${table}" where "${table}"."id" = $1`, [3], 1, null],
      ['postgres', `delete from "${table}" where "${table}"."id" = $1`, [103], 1, null],
    ],
  );
  // `await` on a Drizzle query runs it from a microtask, where none of the application's frames are
  // left; `.execute()` runs it on the application's line.
  t.is(queries[2]?.origin?.line, lineOf('drizzle-execute-line'));
  const spans = (profile.collectors['timeline'] as { spans: { category: string; name: string }[] }).spans.filter((span) => span.category === 'db');
  t.deepEqual(spans.map((span) => span.name), [`sql INSERT ${table}`, `sql SELECT ${table}`, `sql SELECT ${table}`, `sql DELETE ${table}`]);
});

test.serial('a password bound by postgres.js or Drizzle to a secret column is never stored, as pg’s is not; a harmless value is', async (t) => {
  const io = await app([
    route('secrets', async () => {
      await sql`SELECT id FROM ${sql(table)} WHERE name = ${'VISIBLEPGJS'}`;
      await sql`SELECT id FROM ${sql(table)} WHERE name = ${'n'} AND password = ${'SECRETPGJSTAGGED'}`;
      await sql.unsafe(`SELECT id FROM ${table} WHERE password = $1`, ['SECRETPGJSUNSAFE']);
      await sql.unsafe(`UPDATE ${table} SET password = 'SECRETPGJSLITERAL' WHERE id = 0`);
      await sql`SELECT id FROM ${sql(table)} WHERE password = ${'x'} AND id = ${'SECRETPGJSERROR'}`.catch(() => undefined);
      await db.insert(users).values({ id: 200, name: 'VISIBLEDRIZZLE', password: 'SECRETDRIZZLE' });
      await db.delete(users).where(eq(users.id, 200));
    }),
  ]);
  const { profile } = await profiledRequest(io, { path: '/secrets/1' });
  const stored = JSON.stringify(profile);
  for (const secret of ['SECRETPGJSTAGGED', 'SECRETPGJSUNSAFE', 'SECRETPGJSLITERAL', 'SECRETPGJSERROR', 'SECRETDRIZZLE']) t.false(stored.includes(secret), `${secret} was stored`);
  t.true(stored.includes('VISIBLEPGJS'));
  const queries = queriesOf(profile);
  t.is(queries.length, 7);
  // The server refused the marker as an integer and quoted it: the message is kept, the value is not.
  t.regex(queries[4]?.error ?? '', /invalid input syntax for type integer/);
  t.deepEqual(queries[1]?.params, [REDACTED, REDACTED]);
});

test.serial('the ES module build of postgres.js (`import postgres from \'postgres\'`) is captured as the CommonJS one is', async (t) => {
  const esmSql = esm.connect(options);
  try {
    const io = await app([route('esm', async (id) => ({ name: (await esm.nameOf(esmSql, table, id))[0]?.name }))]);
    const { body, profile } = await profiledRequest(io, { path: '/esm/4' });
    t.deepEqual(JSON.parse(body), { name: 'user4' });
    const queries = queriesOf(profile);
    t.deepEqual(queries.map((query) => [query.driver, query.sql, query.params, query.rows]), [['postgres', `SELECT name FROM "${table}" WHERE id = $1`, [4], 1]]);
    const file = require.resolve('./postgres-js-esm-queries.mjs');
    t.deepEqual([queries[0]?.origin?.file, queries[0]?.origin?.line], [file, lineOf('esm-query-line', file)]);
  } finally {
    await esmSql.end();
  }
});

test.serial('the Database panel shows a postgres.js query with its driver', async (t) => {
  const io = await app([route('panel', async (id) => sql`SELECT name AS panel_name FROM ${sql(table)} WHERE id = ${id}`)]);
  const { profile } = await profiledRequest(io, { path: '/panel/5' });
  const res = await httpRequest(io.port, { path: `/_profiler/${profile.token}?panel=db` });
  t.is(res.status, 200);
  t.regex(res.body, new RegExp(`<pre class="sql">SELECT name AS panel_name FROM &quot;${table}&quot; WHERE id = \\$1</pre>`));
  t.regex(res.body, /<span class="help">postgres<\/span>/);
});

test.serial('queries made outside any request (start-up, a timer) are recorded in no profile', async (t) => {
  const io = await app([route('idle', async () => undefined)]);
  await sql`SELECT 1 AS at_startup`;
  const timer = setInterval(() => {
    sql`SELECT 2 AS in_a_timer`.catch(() => undefined);
  }, 2);
  try {
    for (let i = 0; i < 5; i++) {
      const { profile } = await profiledRequest(io, { path: `/idle/${i}` });
      t.deepEqual(queriesOf(profile), []);
    }
  } finally {
    clearInterval(timer);
  }
  await sleep(10);
});

for (const capture of ['http,redis,mysql2,pg', 'none']) {
  test.serial(`PROFILER_CAPTURE=${capture} captures no query of postgres.js`, async (t) => {
    const io = await app([route('off', async (id) => (await sql`SELECT name FROM ${sql(table)} WHERE id = ${id}`)[0])], { PROFILER_CAPTURE: capture });
    const { body, profile } = await profiledRequest(io, { path: '/off/2' });
    t.deepEqual(JSON.parse(body), { name: 'user2' });
    t.deepEqual(queriesOf(profile), []);
  });
}

test.serial('cursors and forEach are recorded with the rows they read, a cursor left with break too', async (t) => {
  const io = await app([
    route('cursor', async () => {
      let read = 0;
      for await (const rows of sql`SELECT g FROM generate_series(1, 5) g`.cursor(2)) read += rows.length;
      for await (const rows of sql`SELECT g FROM generate_series(1, 9) g`.cursor(2)) {
        read += rows.length;
        break;
      }
      await sql`SELECT g FROM generate_series(1, 4) g`.cursor(3, (rows) => void (read += rows.length));
      await sql`SELECT g FROM generate_series(1, 3) g`.forEach(() => void (read += 1));
      return { read };
    }),
  ]);
  const { body, profile } = await profiledRequest(io, { path: '/cursor/1' });
  t.deepEqual(JSON.parse(body), { read: 14 });
  const queries = queriesOf(profile);
  t.deepEqual(queries.map((query) => [query.sql, query.rows, query.error, typeof query.duration]), [
    ['SELECT g FROM generate_series(1, 5) g', 5, null, 'number'],
    ['SELECT g FROM generate_series(1, 9) g', 2, null, 'number'],
    ['SELECT g FROM generate_series(1, 4) g', 4, null, 'number'],
    ['SELECT g FROM generate_series(1, 3) g', 3, null, 'number'],
  ]);
});

test.serial('30 concurrent requests on one connection, their queries queued and sent from each other’s callbacks: each profile holds exactly its own', async (t) => {
  // One connection: a query with parameters fills it until the server described it, so the others
  // wait in postgres.js' queue and are sent when the connection is ready, in whichever request's callback.
  const one = postgres({ ...options, max: 1 });
  try {
    const io = await app([
      route('queued', async (id) => {
        await one`SELECT ${id}::int AS id, pg_sleep(0.002)`;
        await one.unsafe('SELECT $1::int + 1 AS next', [id]);
      }),
    ]);
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    const results = await Promise.all(ids.map((id) => profiledRequest(io, { path: `/queued/${id}` })));
    for (const [index, { profile }] of results.entries()) {
      const id = ids[index] ?? 0;
      t.deepEqual(queriesOf(profile).map((query) => query.params), [[id], [id]], `request ${id}: its own queries only`);
    }
  } finally {
    await one.end();
  }
});
