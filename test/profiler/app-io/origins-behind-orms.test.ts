import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { LoupeResponse, type Profile, type RouteDefinition } from '../../../src';
import { type StoredQuery } from '../../../src/profiler/app-io/analyze-calls';
import { type DatabaseCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';
import { httpRequest } from '../../helpers/http-client';
import { profiledRequest, startIoApp, startUpstream, type IoApp } from './io-app';

/*
 * Origins of queries an ORM sends after the application's frames are gone: Drizzle on
 * node-postgres (an awaited query builder runs its `then` from a microtask), a library's lazy
 * query (a thenable), a library's chain of async functions, and statements a library sends itself
 * (Drizzle's BEGIN and COMMIT), all over real HTTP into real PostgreSQL.
 */

const table = `loupe_orm_${randomBytes(3).toString('hex')}`;
const pool = new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 4 });
const users = pgTable(table, { id: integer('id').primaryKey(), name: text('name') });
const db = drizzle(pool);

/**
 * A library as an ORM is one, installed under a `node_modules` folder: `lazy` answers a thenable
 * whose `then` sends the query at once (as Drizzle's query builders do), `deep` sends it after
 * awaits of its own (as Prisma's client does), so V8 keeps the caller's `await` as an async frame.
 */
const LIBRARY = `'use strict';
exports.lazy = (pool, sql, params) => ({ then: (resolve, reject) => pool.query(sql, params).then(resolve, reject) });
async function send(pool, sql, params) { await new Promise((resolve) => setImmediate(resolve)); return pool.query(sql, params); }
async function prepare(pool, sql, params) { await new Promise((resolve) => setImmediate(resolve)); const result = await send(pool, sql, params); return result; }
exports.deep = (pool, sql, params) => ({ then: (resolve, reject) => prepare(pool, sql, params).then(resolve, reject) });
exports.fetchLater = (url) => ({
  then: (resolve, reject) => require('node:http').get(url, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode)); }).on('error', reject),
});
`;
const folder = mkdtempSync(join(tmpdir(), 'loupe-origins-'));
mkdirSync(join(folder, 'node_modules', 'lazy-orm'), { recursive: true });
writeFileSync(join(folder, 'node_modules', 'lazy-orm', 'index.js'), LIBRARY);
interface LazyOrm {
  lazy(pool: pg.Pool, sql: string, params: unknown[]): PromiseLike<pg.QueryResult>;
  deep(pool: pg.Pool, sql: string, params: unknown[]): PromiseLike<pg.QueryResult>;
  /** An HTTP client's lazy request: sent from its thenable's `then`. */
  fetchLater(url: string): PromiseLike<number>;
}
const orm = createRequire(join(folder, 'index.js'))('lazy-orm') as LazyOrm;

/** The line of this file holding `marker`, as the profile's origins name it. */
function lineOf(marker: string): number {
  const index = readFileSync(__filename, 'utf8').split('\n').findIndex((line) => line.includes(marker) && !line.includes('lineOf('));
  if (index < 0) throw new Error(`No line holds ${marker}.`);
  return index + 1;
}

function route(name: string, handle: () => Promise<void>): RouteDefinition {
  return { name, path: `/${name}`, methods: ['GET'], controller: { name: `${name}Controller`, handle: async () => (await handle(), LoupeResponse.json({ ok: true })) } };
}

const routes: RouteDefinition[] = [
  route('drizzle', async () => {
    for (const id of [1, 2, 3, 4]) await db.select().from(users).where(eq(users.id, id));
  }),
  route('transaction', async () => {
    await db.transaction(async (tx) => {
      await tx.update(users).set({ name: 'renamed' }).where(eq(users.id, 5));
    });
  }),
  route('lazy', async () => {
    for (const id of [1, 2, 3]) await orm.lazy(pool, `SELECT name FROM ${table} WHERE id = $1`, [id]);
  }),
  route('deep', async () => {
    for (const id of [1, 2, 3]) await orm.deep(pool, `SELECT name FROM ${table} WHERE id = $1`, [id]); // deep-await-line
  }),
  route('http', async () => {
    await orm.fetchLater(`${upstream.url}/json`);
  }),
  route('direct', async () => {
    for (const id of [1, 2, 3]) await pool.query(`SELECT name FROM ${table} WHERE id = $1`, [id]); // direct-line
  }),
];

let io: IoApp;
let upstream: Awaited<ReturnType<typeof startUpstream>>;

test.before(async () => {
  try {
    await pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
    await pool.query(`INSERT INTO ${table} SELECT g, 'user' || g FROM generate_series(1, 10) g`);
  } catch (error) {
    throw new Error(`PostgreSQL at 127.0.0.1:5432 (database test, trust) did not answer: start it with pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start (${String(error)}).`);
  }
  upstream = await startUpstream();
  io = await startIoApp(routes);
});

test.after.always(async () => {
  await io?.close();
  await upstream?.close();
  await pool.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await pool.end();
  rmSync(folder, { recursive: true, force: true });
});

const dbData = (profile: Profile) => profile.collectors['db'] as unknown as DatabaseCollectorData;
const ofTable = (profile: Profile): StoredQuery[] => dbData(profile).queries.filter((query) => query.sql.includes(table));

test.serial('Drizzle on node-postgres: each query has its request’s controller and the library that sent it as origin, and a loop of them is no N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/drizzle' });
  const queries = ofTable(profile);
  t.is(queries.length, 4, JSON.stringify(dbData(profile).queries.map((query) => query.sql)));
  for (const query of queries) t.like(query.origin, { file: '', line: 0, function: 'drizzleController', found: 'request', library: 'drizzle-orm' }, JSON.stringify(query.origin));
  t.is(dbData(profile).nPlusOne, 0, 'four queries from somewhere in one request are not one place');
});

test.serial('the BEGIN and COMMIT Drizzle sends for a transaction are marked as issued by drizzle-orm, and the Database panel says so', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/transaction' });
  const sqls = dbData(profile).queries.map((query) => query.sql.trim().toLowerCase());
  const begin = dbData(profile).queries[sqls.indexOf('begin')];
  const commit = dbData(profile).queries[sqls.indexOf('commit')];
  t.like(begin?.origin, { found: 'request', library: 'drizzle-orm', function: 'transactionController' }, JSON.stringify(sqls));
  t.like(commit?.origin, { found: 'request', library: 'drizzle-orm', function: 'transactionController' });
  const panel = await httpRequest(io.port, { path: `/_profiler/${profile.token}?panel=db` });
  t.is(panel.status, 200);
  const commitRow = /<tr class="query"[^>]*>(?:(?!<\/tr>)[\s\S])*?<pre class="sql">commit<\/pre>[\s\S]*?<\/tr>/i.exec(panel.body)?.[0] ?? '';
  t.regex(commitRow, /<span class="request-origin help" title="[^"]+">issued by drizzle-orm in transactionController<\/span>/, panel.body.slice(0, 3000));
});

test.serial('a library’s lazy query, sent from its thenable’s `then`, gets the request’s position and the library’s name, and is no N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/lazy' });
  const queries = ofTable(profile);
  t.is(queries.length, 3);
  for (const query of queries) t.like(query.origin, { file: '', function: 'lazyController', found: 'request', library: 'lazy-orm' }, JSON.stringify(query.origin));
  t.is(dbData(profile).nPlusOne, 0);
});

test.serial('a query a library sends after awaits of its own has the application’s awaiting line as origin, found among the async frames, and a loop of them is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/deep' });
  const queries = ofTable(profile);
  t.is(queries.length, 3);
  for (const query of queries) {
    t.regex(query.origin?.file ?? '', /origins-behind-orms\.test\.ts$/, JSON.stringify(query.origin));
    t.like(query.origin, { line: lineOf('deep-await-line'), found: 'async' });
  }
  t.is(dbData(profile).nPlusOne, 1, 'the awaiting line is a real place: the loop is found');
});

test.serial('an HTTP call a library sends from its thenable is marked as issued by it in the HTTP Client panel', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/http' });
  const calls = (profile.collectors['http_client'] as unknown as { calls: { url: string; origin: unknown }[] }).calls;
  t.is(calls.length, 1);
  t.like(calls[0]?.origin, { file: '', function: 'httpController', found: 'request', library: 'lazy-orm' }, JSON.stringify(calls[0]));
  const panel = await httpRequest(io.port, { path: `/_profiler/${profile.token}?panel=http_client` });
  t.regex(panel.body, />issued by lazy-orm in httpController<\/span>/);
});

test.serial('a query the application sends itself keeps its line from the synchronous stack, stored as before with no mark, and its loop is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/direct' });
  const queries = ofTable(profile);
  t.is(queries.length, 3);
  for (const query of queries) {
    t.regex(query.origin?.file ?? '', /origins-behind-orms\.test\.ts$/);
    t.is(query.origin?.line, lineOf('direct-line'));
    t.deepEqual(Object.keys(query.origin ?? {}).sort(), ['file', 'function', 'line'], 'profiles keep the shape readers of older ones know');
  }
  t.is(dbData(profile).nPlusOne, 1);
});
