import test from 'ava';
import { randomBytes } from 'node:crypto';
import { knex } from 'knex';
import { Kysely, PostgresDialect } from 'kysely';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { profiledRequest, startIoApp, type IoApp } from './io-app';
import { at, dbOf, MYSQL_SETTINGS, originOf, PG_SETTINGS, queriesOf, route, createUserTables } from './compat-helpers';

/*
 * Compatibility (docs/app-io.md): pg-pool used directly, knex on pg and on mysql2, Kysely on pg,
 * each the real library against the real PostgreSQL and MariaDB of this machine, over real HTTP.
 * Each library gets a pool of one connection of its own, made in the request: the statements it
 * sends itself on a new connection are in the first profile.
 */

const table = `loupe_compat_${randomBytes(3).toString('hex')}`;
const line = at(__filename);
const where = (origin: Parameters<typeof originOf>[0]) => originOf(origin, __filename);
const admin = new pg.Pool({ ...PG_SETTINGS, max: 2 });
let myAdmin: mysql.Pool;
/** pg-pool's own Pool, as an application that installs `pg-pool` uses it (its Client: pg's). */
const PgPool = require('pg-pool') as typeof pg.Pool;
const pgPool = new PgPool({ ...PG_SETTINGS, max: 1 });
const knexPg = knex({ client: 'pg', connection: PG_SETTINGS, pool: { min: 0, max: 1 } });
const knexMy = knex({ client: 'mysql2', connection: MYSQL_SETTINGS, pool: { min: 0, max: 1 } });
const kysely = new Kysely<Record<string, { id: number; name: string }>>({ dialect: new PostgresDialect({ pool: new pg.Pool({ ...PG_SETTINGS, max: 1 }) }) });
let io: IoApp;

test.before(async () => {
  myAdmin = await createUserTables(admin, table);
  io = await startIoApp([
    route('pgpool', async () => {
      for (const id of [1, 2, 3]) await pgPool.query(`SELECT name FROM ${table} WHERE id = $1`, [id]); // m:pgpool-loop
      await pgPool.query('SELEC 1').catch(() => undefined); // m:pgpool-error
      const client = await pgPool.connect();
      try {
        await client.query('BEGIN'); // m:pgpool-begin
        await client.query(`UPDATE ${table} SET name = $1 WHERE id = 9`, ['pooled']); // m:pgpool-update
        await client.query('COMMIT'); // m:pgpool-commit
      } finally {
        client.release();
      }
    }),
    route('pgpoolqueued', async (id) => pgPool.query('SELECT $1::int AS id, pg_sleep(0.003)', [id])),
    route('knexpg', async () => {
      for (const id of [1, 2, 3]) await knexPg(table).where({ id }).select('name'); // m:knexpg-loop
      await knexPg.raw('SELEC 1').catch(() => undefined); // m:knexpg-error
      await knexPg.transaction(async (trx) => { // m:knexpg-transaction
        await trx(table).where({ id: 9 }).update({ name: 'knexed' }); // m:knexpg-update
      });
    }),
    route('knexmy', async () => {
      for (const id of [1, 2, 3]) await knexMy(table).where({ id }).select('name'); // m:knexmy-loop
      await knexMy.raw('SELEC 1').catch(() => undefined); // m:knexmy-error
      await knexMy.transaction(async (trx) => { // m:knexmy-transaction
        await trx(table).where({ id: 9 }).update({ name: 'knexed' }); // m:knexmy-update
      });
    }),
    route('kysely', async () => {
      for (const id of [1, 2, 3]) await kysely.selectFrom(table).select('name').where('id', '=', id).execute(); // m:kysely-loop
      await kysely.selectFrom(`${table}_missing`).selectAll().execute().catch(() => undefined); // m:kysely-error
      await kysely.transaction().execute(async (trx) => { // m:kysely-transaction
        await trx.updateTable(table).set({ name: 'kyselied' }).where('id', '=', 9).execute(); // m:kysely-update
      });
    }),
  ]);
});

test.after.always(async () => {
  await io?.close();
  await Promise.all([pgPool.end(), knexPg.destroy(), knexMy.destroy(), kysely.destroy()]);
  await admin.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await myAdmin?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await admin.end();
  await myAdmin?.end();
});

test.serial('pg-pool used directly: text, parameters, rows, the error, a transaction on a checked-out client, each on its line, and the loop an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/pgpool/1' });
  const queries = queriesOf(profile);
  t.deepEqual(queries.map((query) => [query.driver, query.sql, query.params, query.rows, where(query.origin)]), [
    ['pg', `SELECT name FROM ${table} WHERE id = $1`, [1], 1, line('m:pgpool-loop')],
    ['pg', `SELECT name FROM ${table} WHERE id = $1`, [2], 1, line('m:pgpool-loop')],
    ['pg', `SELECT name FROM ${table} WHERE id = $1`, [3], 1, line('m:pgpool-loop')],
    ['pg', 'SELEC 1', [], null, line('m:pgpool-error')],
    ['pg', 'BEGIN', [], null, line('m:pgpool-begin')],
    ['pg', `UPDATE ${table} SET name = $1 WHERE id = 9`, ['pooled'], 1, line('m:pgpool-update')],
    ['pg', 'COMMIT', [], null, line('m:pgpool-commit')],
  ]);
  t.regex(queries[3]?.error ?? '', /syntax error at or near "SELEC"/);
  t.like(dbOf(profile), { count: 7, errors: 1, nPlusOne: 1 });
});

test.serial('pg-pool used directly: 10 concurrent requests queued for its one connection each hold exactly their own query', async (t) => {
  const ids = Array.from({ length: 10 }, (_, i) => i + 1);
  const results = await Promise.all(ids.map((id) => profiledRequest(io, { path: `/pgpoolqueued/${id}` })));
  t.deepEqual(results.map(({ profile }) => queriesOf(profile).map((query) => query.params)), ids.map((id) => [[id]]));
});

for (const [name, driver, version, error, placeholders] of [
  ['knexpg', 'pg', 'select version();', /syntax error at or near "SELEC"/, true],
  ['knexmy', 'mysql2', 'select version() as version', /You have an error in your SQL syntax/, false],
] as const) {
  test.serial(`knex on ${driver}: its version query on a new connection and its BEGIN/COMMIT are issued by a library, the application’s queries have their awaiting line, the loop is an N+1`, async (t) => {
    const first = await profiledRequest(io, { path: `/${name}/1` });
    const again = await profiledRequest(io, { path: `/${name}/2` });
    const quote = (id: string) => (driver === 'pg' ? `"${id}"` : `\`${id}\``);
    // knex sends mysql2's `query` its values: mysql2 publishes the statement with them in its text.
    const select = (id: number) => `select ${quote('name')} from ${quote(table)} where ${quote('id')} = ${placeholders ? '$1' : id}`;
    const update = `update ${quote(table)} set ${quote('name')} = ${placeholders ? '$1' : "'knexed'"} where ${quote('id')} = ${placeholders ? '$2' : 9}`;
    const steady = [
      [select(1), [1], 1, line(`m:${name}-loop`, 'async')],
      [select(2), [2], 1, line(`m:${name}-loop`, 'async')],
      [select(3), [3], 1, line(`m:${name}-loop`, 'async')],
      ['SELEC 1', [], null, line(`m:${name}-error`, 'async')],
      ['BEGIN;', [], driver === 'pg' ? null : 0, driver === 'pg' ? line(`m:${name}-transaction`, 'async') : 'issued by knex'],
      [update, ['knexed', 9], 1, line(`m:${name}-update`, 'async')],
      ['COMMIT;', [], driver === 'pg' ? null : 0, 'issued by knex'],
    ];
    const rows = (profile: typeof first.profile) => queriesOf(profile).map((query) => [query.sql, query.params, query.rows, where(query.origin)]);
    t.deepEqual(rows(first.profile), [[version, [], 1, `issued by ${driver === 'pg' ? 'knex' : 'mysql2'}`], ...steady]);
    t.deepEqual(rows(again.profile), steady);
    t.true(queriesOf(again.profile).every((query) => query.driver === driver && query.database === 'test'));
    t.regex(queriesOf(again.profile)[3]?.error ?? '', error);
    t.like(dbOf(again.profile), { count: 7, errors: 1, nPlusOne: 1 });
  });
}

test.serial('Kysely on pg: text, parameters, rows, the error and its transaction’s begin and commit, from the application’s awaiting lines; the loop is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/kysely/1' });
  const queries = queriesOf(profile);
  t.deepEqual(queries.map((query) => [query.driver, query.sql, query.params, query.rows, where(query.origin)]), [
    ['pg', `select "name" from "${table}" where "id" = $1`, [1], 1, line('m:kysely-loop', 'async')],
    ['pg', `select "name" from "${table}" where "id" = $1`, [2], 1, line('m:kysely-loop', 'async')],
    ['pg', `select "name" from "${table}" where "id" = $1`, [3], 1, line('m:kysely-loop', 'async')],
    ['pg', `select * from "${table}_missing"`, [], null, line('m:kysely-error', 'async')],
    ['pg', 'begin', [], null, line('m:kysely-transaction', 'async')],
    ['pg', `update "${table}" set "name" = $1 where "id" = $2`, ['kyselied', 9], 1, line('m:kysely-update')],
    ['pg', 'commit', [], null, line('m:kysely-transaction', 'async')],
  ]);
  t.regex(queries[3]?.error ?? '', /relation ".*_missing" does not exist/);
  t.like(dbOf(profile), { count: 7, errors: 1, nPlusOne: 1 });
});
