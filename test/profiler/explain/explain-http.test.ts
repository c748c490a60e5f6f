import { redisConfigOf } from '../../helpers/test-server';
import test from 'ava';
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { LoupeResponse, type RouteDefinition } from '../../../src';
import { httpRequest, type HttpResult } from '../../helpers/http-client';
import { runLoupe } from '../../cli/run-loupe';
import { profiledRequest, startIoApp, type IoApp } from '../app-io/io-app';

/*
 * The Database panel's Explain action and `loupe profiler:explain` against the real PostgreSQL
 * and MariaDB of this machine: a debug server whose route runs its queries through pg and
 * mysql2, then EXPLAIN over HTTP of the stored queries, as a developer clicks it.
 */

const run = randomBytes(3).toString('hex');
const table = `loupe_explain_${run}`;
const writer = `loupe_explain_write_${run}`;
const myWriter = `loupe_explain_my_write_${run}`;
/** What the functions write into: the table explained keeps its rows. */
const log = `loupe_explain_log_${run}`;
const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';
const MY_URL = 'mysql://root@127.0.0.1:3306/test';
const EXPLAIN_ENV = { PROFILER_EXPLAIN_DATABASE_URL: `${PG_URL},${MY_URL}`, PROFILER_EXPLAIN_TIMEOUT_MS: '5000' };

/** The queries the route runs, in order: the Database panel numbers them from 1. */
const Q = { pgSelect: 1, mySelect: 2, pgInsert: 3, pgSecret: 4, pgTwo: 5, pgWrites: 6, myWrites: 7 } as const;

let pgPool: pg.Pool;
let myPool: mysql.Pool;
let io: IoApp;
let token: string;

const JSON_ACCEPT = { Accept: 'application/json' };

function route(): RouteDefinition {
  return {
    name: 'explained',
    path: '/explained/{name}',
    methods: ['GET'],
    controller: {
      name: 'explained',
      handle: async ({ params }) => {
        const name = params['name'] ?? '';
        await pgPool.query(`SELECT id, name FROM ${table} WHERE name = $1`, [name]);
        await myPool.query(`SELECT id, name FROM ${table} WHERE name = ?`, [name]);
        await pgPool.query(`INSERT INTO ${table} (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [100_000, 'inserted']);
        await pgPool.query(`SELECT id FROM ${table} WHERE password = $1`, ['hunter2']);
        await pgPool.query(`SELECT 1; SELECT 2`);
        await pgPool.query(`SELECT ${writer}() AS written`);
        await myPool.query(`SELECT ${myWriter}() AS written`);
        return LoupeResponse.json({ ok: true });
      },
    },
  };
}

function post(path: string, headers: Readonly<Record<string, string>> = {}, localAddress?: string): Promise<HttpResult> {
  return httpRequest(io.port, { method: 'POST', path, headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: '', ...(localAddress === undefined ? {} : { localAddress }) });
}

async function pgWrites(): Promise<number> {
  const { rows } = await pgPool.query<{ n: string }>(`SELECT count(*) AS n FROM ${log}`);
  return Number(rows[0]?.n);
}

async function myWrites(): Promise<number> {
  const [rows] = await myPool.query(`SELECT count(*) AS n FROM ${log}`);
  return Number((rows as { n: number }[])[0]?.n);
}

test.before(async () => {
  pgPool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  try {
    await pgPool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text, password text)`);
  } catch (error) {
    throw new Error(`PostgreSQL at 127.0.0.1:5432 (database test, trust) did not answer: start it with pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start (${String(error)}).`);
  }
  await pgPool.query(`INSERT INTO ${table} SELECT g, 'user' || g, 'pw' FROM generate_series(1, 500) g`);
  await pgPool.query(`ANALYZE ${table}`);
  await pgPool.query(`CREATE TABLE ${log} (note text)`);
  // A volatile function that writes: what a SELECT may call, and a read-only transaction refuses.
  await pgPool.query(`CREATE FUNCTION ${writer}() RETURNS int LANGUAGE sql VOLATILE AS $$ INSERT INTO ${log} (note) VALUES ('written') RETURNING 1 $$`);
  myPool = mysql.createPool({ uri: MY_URL, connectionLimit: 2 });
  try {
    await myPool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name varchar(40))`);
  } catch (error) {
    throw new Error(`MariaDB at 127.0.0.1:3306 (root, database test) did not answer: start it with start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd (${String(error)}).`);
  }
  await myPool.query(`INSERT INTO ${table} (id, name) VALUES ${Array.from({ length: 50 }, (_, i) => `(${i + 1}, 'user${i + 1}')`).join(', ')}`);
  await myPool.query(`CREATE TABLE ${log} (note varchar(20))`);
  await myPool.query(`CREATE FUNCTION ${myWriter}() RETURNS int MODIFIES SQL DATA BEGIN INSERT INTO ${log} (note) VALUES ('written'); RETURN 1; END`);
  io = await startIoApp([route()], EXPLAIN_ENV);
  const { profile } = await profiledRequest(io, { path: '/explained/user42' });
  token = profile.token;
});

test.after.always(async () => {
  await io?.close();
  await pgPool?.query(`DROP FUNCTION IF EXISTS ${writer}()`).catch(() => undefined);
  await pgPool?.query(`DROP TABLE IF EXISTS ${table}, ${log}`).catch(() => undefined);
  await myPool?.query(`DROP FUNCTION IF EXISTS ${myWriter}`).catch(() => undefined);
  await myPool?.query(`DROP TABLE IF EXISTS ${table}, ${log}`).catch(() => undefined);
  await pgPool?.end();
  await myPool?.end();
});

test('the Database panel offers Explain on each SELECT as a form that posts, and says why a redacted one is not explained', async (t) => {
  const page = await httpRequest(io.port, { path: `/_profiler/${token}?panel=db` });
  t.is(page.status, 200);
  for (const number of [Q.pgSelect, Q.mySelect, Q.pgWrites]) t.true(page.body.includes(`<form method="post" action="/_profiler/${token}/explain/${number}" class="explain-form">`), `query ${number}`);
  t.false(page.body.includes(`/explain/${Q.pgInsert}"`));
  t.false(page.body.includes(`/explain/${Q.pgSecret}"`));
  t.regex(page.body, /Not explained: a parameter was redacted/);
  t.false(page.body.includes('<script'));
});

test('EXPLAIN of a PostgreSQL SELECT shows the plan tree with its rows and cost, the sequential scan marked', async (t) => {
  const res = await post(`/_profiler/${token}/explain/${Q.pgSelect}`);
  t.is(res.status, 200, res.body);
  t.regex(res.headers['content-type'] ?? '', /text\/html/);
  t.regex(res.body, new RegExp(`<li class="plan-node full-scan"><span class="plan-label">Seq Scan on ${table}</span> <span class="flag flag-full-scan">Seq Scan</span> <span class="plan-rows">rows=1</span> <span class="plan-cost">cost=[\\d.,]+</span>`));
  t.regex(res.body, /<li>Filter: \(name = 'user42'::text\)<\/li>/);
  t.regex(res.body, /1 Seq Scan</);
  t.regex(res.body, /explained on <code>postgres:\/\/postgres@127\.0\.0\.1:5432\/test<\/code>/);
  t.false(res.body.includes('actual rows='), 'EXPLAIN alone does not run the query');
  t.true(res.body.includes(`<form method="post" action="/_profiler/${token}/explain/${Q.pgSelect}/analyze" class="explain-form">`));
});

test('EXPLAIN ANALYZE, the second action, runs the query and shows its actual rows', async (t) => {
  const res = await post(`/_profiler/${token}/explain/${Q.pgSelect}/analyze`, JSON_ACCEPT);
  t.is(res.status, 200, res.body);
  const body = JSON.parse(res.body) as { analyze: boolean; statement: string; fullScans: number; tree: { nodes: { label: string; fullScan: boolean; actualRows: number | null; loops: number | null }[] } };
  t.true(body.analyze);
  t.regex(body.statement, /^EXPLAIN \(ANALYZE, BUFFERS, FORMAT JSON\) SELECT/);
  t.like(body.tree.nodes[0], { label: `Seq Scan on ${table}`, fullScan: true, actualRows: 1, loops: 1 });
  const page = await post(`/_profiler/${token}/explain/${Q.pgSelect}/analyze`);
  t.regex(page.body, /<span class="plan-actual-rows">actual rows=1<\/span>/);
  t.regex(page.body, /Execution Time: [\d.]+ ms/);
});

test('EXPLAIN and ANALYZE of a MariaDB SELECT show its full table scan with rows, then the rows read', async (t) => {
  const explained = await post(`/_profiler/${token}/explain/${Q.mySelect}`);
  t.is(explained.status, 200, explained.body);
  t.regex(explained.body, new RegExp(`<li class="plan-node full-scan"><span class="plan-label">${table} \\(ALL\\)</span> <span class="flag flag-full-scan">full table scan</span> <span class="plan-rows">rows=50</span>`));
  t.regex(explained.body, /MariaDB/);
  const analyzed = await post(`/_profiler/${token}/explain/${Q.mySelect}/analyze`, JSON_ACCEPT);
  t.is(analyzed.status, 200, analyzed.body);
  const body = JSON.parse(analyzed.body) as { statement: string; tree: { nodes: { label: string; children: { label: string; actualRows: number | null; fullScan: boolean }[] }[] } };
  t.regex(body.statement, /^ANALYZE FORMAT=JSON SELECT/);
  t.like(body.tree.nodes[0]?.children[0], { label: `${table} (ALL)`, fullScan: true, actualRows: 50 });
});

test('what is not one read-only SELECT kept whole is refused, saying why: an INSERT, a redacted parameter, two statements', async (t) => {
  const cases: readonly (readonly [number, RegExp])[] = [
    [Q.pgInsert, /only a SELECT \(or WITH … SELECT\) is explained, since it only reads; this statement is an INSERT/],
    [Q.pgSecret, /a parameter was redacted/],
    [Q.pgTwo, /several statements/],
  ];
  for (const [number, reason] of cases) {
    const res = await post(`/_profiler/${token}/explain/${number}`, JSON_ACCEPT);
    t.is(res.status, 422, `query ${number}`);
    t.regex((JSON.parse(res.body) as { detail: string }).detail, reason);
  }
  t.is((await post(`/_profiler/${token}/explain/99`)).status, 404);
});

// Serial: the other tests' requests run the route, whose functions write.
test.serial('EXPLAIN ANALYZE runs in a read-only transaction: a SELECT of a function that writes fails, on PostgreSQL and MariaDB, and nothing was written', async (t) => {
  const before = await pgWrites();
  const res = await post(`/_profiler/${token}/explain/${Q.pgWrites}/analyze`, JSON_ACCEPT);
  t.is(res.status, 502, res.body);
  t.regex((JSON.parse(res.body) as { detail: string }).detail, /cannot execute INSERT in a read-only transaction/);
  t.is(await pgWrites(), before);
  // EXPLAIN without ANALYZE plans it and runs nothing.
  t.is((await post(`/_profiler/${token}/explain/${Q.pgWrites}`)).status, 200);
  t.is(await pgWrites(), before);
  const myBefore = await myWrites();
  const mariaDb = await post(`/_profiler/${token}/explain/${Q.myWrites}/analyze`, JSON_ACCEPT);
  t.is(mariaDb.status, 502, mariaDb.body);
  t.regex((JSON.parse(mariaDb.body) as { detail: string }).detail, /Cannot execute statement in a READ ONLY transaction/);
  t.is(await myWrites(), myBefore);
});

test('the explain action obeys the profiler access rule and takes a POST from the profiler’s own pages only', async (t) => {
  const path = `/_profiler/${token}/explain/${Q.pgSelect}`;
  t.is((await httpRequest(io.port, { path })).status, 405, 'a GET (a link, an image) does not run it');
  const crossSite = await post(path, { 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' });
  t.is(crossSite.status, 403);
  t.regex(crossSite.body, /from its own pages only/);
  t.is((await post(path, { Origin: 'http://evil.example' })).status, 403);
  t.is((await post(path, { Origin: `http://127.0.0.1:${io.port}`, 'Sec-Fetch-Site': 'same-origin' })).status, 200);
  t.is((await post(path, { Host: 'rebound.example' })).status, 403, 'DNS rebinding: a Host that is no IP address');
  const restricted = await startIoApp([route()], { ...EXPLAIN_ENV, PROFILER_ALLOWED_IPS: '127.0.0.1/32' });
  try {
    const { profile } = await profiledRequest(restricted, { path: '/explained/user1' });
    const other = await httpRequest(restricted.port, { method: 'POST', path: `/_profiler/${profile.token}/explain/${Q.pgSelect}`, localAddress: '127.0.0.2', headers: JSON_ACCEPT });
    t.is(other.status, 403);
    t.regex(other.body, /outside PROFILER_ALLOWED_IPS/);
  } finally {
    await restricted.close();
  }
});

test('without PROFILER_EXPLAIN_DATABASE_URL the action says how to configure it', async (t) => {
  const unconfigured = await startIoApp([route()]);
  try {
    const { profile } = await profiledRequest(unconfigured, { path: '/explained/user1' });
    const res = await httpRequest(unconfigured.port, { method: 'POST', path: `/_profiler/${profile.token}/explain/${Q.pgSelect}`, headers: JSON_ACCEPT });
    t.is(res.status, 503);
    t.regex((JSON.parse(res.body) as { detail: string }).detail, /set PROFILER_EXPLAIN_DATABASE_URL \(e\.g\. postgres:\/\//);
  } finally {
    await unconfigured.close();
  }
});

test('loupe profiler:explain TOKEN N prints the plan as an indented tree, the Seq Scan marked; --analyze its actual rows; a refused query exits 1 with the reason', async (t) => {
  const env = { REDIS_PREFIX: redisConfigOf(io.app.config).prefix, ...EXPLAIN_ENV };
  const explained = await runLoupe(['profiler:explain', token, String(Q.pgSelect)], env);
  t.is(explained.code, 0, explained.stderr);
  t.true(explained.stdout.startsWith(`EXPLAIN of query #${Q.pgSelect} of ${token}\n`), explained.stdout);
  t.regex(explained.stdout, new RegExp(`\\nSeq Scan on ${table}  rows=1 cost=[\\d.,]+  \\[Seq Scan\\]\\n   Filter: \\(name = 'user42'::text\\)\\n`));
  const analyzed = await runLoupe(['profiler:explain', token, String(Q.mySelect), '--analyze'], env);
  t.is(analyzed.code, 0, analyzed.stderr);
  t.regex(analyzed.stdout, new RegExp(`\\n  -> ${table} \\(ALL\\)  rows=50 actual rows=50 time=[\\d.]+ ms loops=1  \\[full table scan\\]\\n`));
  const refused = await runLoupe(['profiler:explain', token, String(Q.pgSecret)], env);
  t.is(refused.code, 1);
  t.regex(refused.stderr, /Query not explained\. Query #4 is not explained: a parameter was redacted/);
});
