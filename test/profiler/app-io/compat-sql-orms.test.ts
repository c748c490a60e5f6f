import test from 'ava';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePostgresJs } from 'drizzle-orm/postgres-js';
import mysql from 'mysql2/promise';
import pg from 'pg';
import postgres from 'postgres';
import { DataTypes, Sequelize } from 'sequelize';
import { DataSource, EntitySchema } from 'typeorm';
import { profiledRequest, startIoApp, type IoApp } from './io-app';
import { at, dbOf, originOf, PG_SETTINGS, queriesOf, route, createUserTables } from './compat-helpers';

/*
 * Compatibility (docs/app-io.md): TypeORM on pg, Sequelize on pg and on mysql2, Drizzle on
 * node-postgres and on postgres-js, each the real
 * library against the real PostgreSQL and MariaDB of this machine, over real HTTP. Each has a
 * pool of one connection; Sequelize connects in the first request, so the statements it sends on
 * a new connection are in that profile; TypeORM connects at initialize, before any request.
 */

const table = `loupe_orm_compat_${randomBytes(3).toString('hex')}`;
const line = at(__filename);
const where = (origin: Parameters<typeof originOf>[0]) => originOf(origin, __filename);
const admin = new pg.Pool({ ...PG_SETTINGS, max: 1 });
let myAdmin: mysql.Pool;

interface User {
  id: number;
  name: string;
}
const UserSchema = new EntitySchema<User>({ name: 'user', tableName: table, columns: { id: { type: Number, primary: true }, name: { type: String } } });
const typeorm = new DataSource({ type: 'postgres', ...PG_SETTINGS, username: PG_SETTINGS.user, entities: [UserSchema], extra: { max: 1 } });
const sequelizePg = new Sequelize(`postgres://postgres@127.0.0.1:5432/test`, { logging: false, pool: { max: 1 } });
const sequelizeMy = new Sequelize(`mysql://root@127.0.0.1:3306/test`, { logging: false, pool: { max: 1 } });
const model = (sequelize: Sequelize) => sequelize.define('user', { id: { type: DataTypes.INTEGER, primaryKey: true }, name: DataTypes.STRING }, { tableName: table, timestamps: false });
const users = { pg: model(sequelizePg), mysql2: model(sequelizeMy) };
const drizzleTable = pgTable(table, { id: integer('id').primaryKey(), name: text('name') });
const postgresJs = postgres({ ...PG_SETTINGS, max: 1, onnotice: () => undefined });
const drizzles = { pg: drizzleNodePostgres(new pg.Pool({ ...PG_SETTINGS, max: 1 })), postgres: drizzlePostgresJs(postgresJs) };
let io: IoApp;

test.before(async () => {
  myAdmin = await createUserTables(admin, table);
  await typeorm.initialize();
  io = await startIoApp([
    route('typeorm', async () => {
      const repository = typeorm.getRepository(UserSchema);
      for (const id of [1, 2, 3]) await repository.findOneBy({ id }); // m:typeorm-loop
      await typeorm.query('SELEC 1').catch(() => undefined); // m:typeorm-error
      await typeorm.transaction(async (manager) => { // m:typeorm-transaction
        await manager.update(UserSchema, { id: 9 }, { name: 'typed' }); // m:typeorm-update
      });
    }),
    ...(['pg', 'postgres'] as const).map((driver) =>
      route(`drizzle-${driver}`, async () => {
        const db = drizzles[driver];
        for (const id of [1, 2, 3]) await db.select({ name: drizzleTable.name }).from(drizzleTable).where(eq(drizzleTable.id, id));
        await db.select({ name: drizzleTable.name }).from(drizzleTable).where(eq(drizzleTable.id, 4)).execute(); // m:drizzle-execute
      }),
    ),
    ...(['pg', 'mysql2'] as const).map((driver) =>
      route(`sequelize-${driver}`, async (request) => {
        const sequelize = driver === 'pg' ? sequelizePg : sequelizeMy;
        for (const id of [1, 2, 3]) await users[driver].findByPk(id); // m:sequelize-loop
        await sequelize.query('SELEC 1').catch(() => undefined); // m:sequelize-error
        await sequelize.transaction(async (transaction) => { // m:sequelize-transaction
          await users[driver].update({ name: `sequelized ${request}` }, { where: { id: 9 }, transaction }); // m:sequelize-update
        });
      }),
    ),
  ]);
});

test.after.always(async () => {
  await io?.close();
  await Promise.all([typeorm.isInitialized ? typeorm.destroy() : undefined, sequelizePg.close(), sequelizeMy.close(), drizzles.pg.$client.end(), postgresJs.end()]);
  await admin.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await myAdmin?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await admin.end();
  await myAdmin?.end();
});

test.serial('TypeORM on pg: its repository’s queries, a failing query and its transaction from the application’s awaiting lines; the loop is an N+1', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/typeorm/1' });
  const queries = queriesOf(profile);
  const select = `SELECT "user"."id" AS "user_id", "user"."name" AS "user_name" FROM "${table}" "user" WHERE (("user"."id" = $1)) LIMIT 1`;
  t.deepEqual(queries.map((query) => [query.driver, query.sql, query.params, query.rows, where(query.origin)]), [
    ['pg', select, [1], 1, line('m:typeorm-loop', 'async')],
    ['pg', select, [2], 1, line('m:typeorm-loop', 'async')],
    ['pg', select, [3], 1, line('m:typeorm-loop', 'async')],
    ['pg', 'SELEC 1', [], null, line('m:typeorm-error', 'async')],
    ['pg', 'START TRANSACTION', [], null, line('m:typeorm-transaction', 'async')],
    ['pg', `UPDATE "${table}" SET "name" = $1 WHERE "id" = $2`, ['typed', 9], 1, line('m:typeorm-update', 'async')],
    ['pg', 'COMMIT', [], null, line('m:typeorm-transaction', 'async')],
  ]);
  t.regex(queries[3]?.error ?? '', /syntax error at or near "SELEC"/);
  t.like(dbOf(profile), { count: 7, errors: 1, nPlusOne: 1 });
});

test.serial('Sequelize on pg: its statements on a new connection, then its queries (values inlined in a SELECT, bound in an UPDATE), error and transaction; the loop is an N+1', async (t) => {
  const first = await profiledRequest(io, { path: '/sequelize-pg/1' });
  const again = await profiledRequest(io, { path: '/sequelize-pg/2' });
  const select = (id: number) => `SELECT "id", "name" FROM "${table}" AS "user" WHERE "user"."id" = ${id};`;
  const steady = (request: number) => [
    [select(1), [], 1, line('m:sequelize-loop', 'async')],
    [select(2), [], 1, line('m:sequelize-loop', 'async')],
    [select(3), [], 1, line('m:sequelize-loop', 'async')],
    ['SELEC 1', [], null, line('m:sequelize-error', 'async')],
    ['START TRANSACTION;', [], null, line('m:sequelize-transaction', 'async')],
    [`UPDATE "${table}" SET "name"=$1 WHERE "id" = $2`, [`sequelized ${request}`, 9], 1, line('m:sequelize-update', 'async')],
    ['COMMIT;', [], null, line('m:sequelize-transaction', 'async')],
  ];
  const rows = (profile: typeof first.profile) => queriesOf(profile).map((query) => [query.sql, query.params, query.rows, where(query.origin)]);
  const set = "SET client_min_messages TO warning;SET TIME ZONE INTERVAL '+00:00' HOUR TO MINUTE;";
  const [connecting, types, ...rest] = rows(first.profile);
  t.deepEqual(connecting, [set, [], 2, line('m:sequelize-loop', 'async')]);
  // Once per Sequelize: the types of the database, read on the first connection.
  t.regex(String(types?.[0]), /^WITH ranges AS \(.*FROM pg_range/);
  t.is(types?.[3], line('m:sequelize-loop', 'async'));
  t.deepEqual(rest, [[set, [], 2, 'issued by sequelize'], ...steady(1)]);
  t.like(dbOf(first.profile), { duplicates: 1 }, 'the second SET repeats the first');
  t.deepEqual(rows(again.profile), steady(2));
  t.true(queriesOf(again.profile).every((query) => query.driver === 'pg' && query.database === 'test'));
  t.regex(queriesOf(again.profile)[3]?.error ?? '', /syntax error at or near "SELEC"/);
  t.like(dbOf(again.profile), { count: 7, errors: 1, nPlusOne: 1, duplicates: 0 });
});

test.serial('Sequelize on mysql2: its statements on a new connection are issued by sequelize, then its queries, error and transaction; the loop is an N+1', async (t) => {
  const first = await profiledRequest(io, { path: '/sequelize-mysql2/1' });
  const again = await profiledRequest(io, { path: '/sequelize-mysql2/2' });
  const select = (id: number) => `SELECT \`id\`, \`name\` FROM \`${table}\` AS \`user\` WHERE \`user\`.\`id\` = ${id};`;
  const steady = (request: number) => [
    [select(1), [], 1, line('m:sequelize-loop', 'async')],
    [select(2), [], 1, line('m:sequelize-loop', 'async')],
    [select(3), [], 1, line('m:sequelize-loop', 'async')],
    ['SELEC 1', [], null, line('m:sequelize-error', 'async')],
    ['START TRANSACTION;', [], 0, line('m:sequelize-transaction', 'async')],
    [`UPDATE \`${table}\` SET \`name\`=? WHERE \`id\` = ?`, [`sequelized ${request}`, 9], 1, line('m:sequelize-update', 'async')],
    ['COMMIT;', [], 0, line('m:sequelize-transaction', 'async')],
  ];
  const rows = (profile: typeof first.profile) => queriesOf(profile).map((query) => [query.sql, query.params, query.rows, where(query.origin)]);
  const set = "SET time_zone = '+00:00'";
  t.deepEqual(rows(first.profile), [[set, [], 0, 'issued by sequelize'], ['SELECT VERSION() as `version`', [], 1, 'issued by sequelize'], [set, [], 0, 'issued by sequelize'], ...steady(1)]);
  t.like(dbOf(first.profile), { duplicates: 1 }, 'the second SET repeats the first');
  t.deepEqual(rows(again.profile), steady(2));
  t.true(queriesOf(again.profile).every((query) => query.driver === 'mysql2' && query.database === 'test'));
  t.regex(queriesOf(again.profile)[3]?.error ?? '', /You have an error in your SQL syntax/);
  t.like(dbOf(again.profile), { count: 7, errors: 1, nPlusOne: 1, duplicates: 0 });
});

for (const driver of ['pg', 'postgres'] as const) {
  test.serial(`Drizzle on ${driver === 'pg' ? 'node-postgres' : 'postgres-js'}: an awaited query is issued by drizzle-orm in the controller, and a loop of them no N+1; one run with .execute() has its line`, async (t) => {
    const { profile } = await profiledRequest(io, { path: `/drizzle-${driver}/1` });
    const select = `select "name" from "${table}" where "${table}"."id" = $1`;
    t.deepEqual(queriesOf(profile).map((query) => [query.driver, query.sql, query.params, query.rows, query.error, where(query.origin)]), [
      ...[1, 2, 3].map((id) => [driver, select, [id], 1, null, 'issued by drizzle-orm']),
      [driver, select, [4], 1, null, line('m:drizzle-execute')],
    ]);
    t.like(queriesOf(profile)[0]?.origin, { function: `drizzle-${driver}Controller` });
    t.like(dbOf(profile), { count: 4, nPlusOne: 0 });
  });
}
