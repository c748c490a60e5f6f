import { readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';
import type pg from 'pg';
import { LoupeResponse, type Profile, type RouteDefinition } from '../../../src';
import { type StoredOrigin, type StoredQuery } from '../../../src/profiler/app-io/analyze-calls';
import { type DatabaseCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';

/*
 * What the compatibility tests (compat-*.test.ts) share: the databases of this machine, a route
 * per library, and an origin written as docs/app-io.md's table says it.
 */

export const PG_SETTINGS = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' } as const;
export const MYSQL_SETTINGS = { host: '127.0.0.1', port: 3306, user: 'root', database: 'test' } as const;
export const PG_DOWN = 'PostgreSQL at 127.0.0.1:5432 (database test, trust) did not answer: start it with pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';
export const MYSQL_DOWN = 'MariaDB at 127.0.0.1:3306 (root, database test) did not answer: start it with start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd';

export const dbOf = (profile: Profile): DatabaseCollectorData => profile.collectors['db'] as unknown as DatabaseCollectorData;
export const queriesOf = (profile: Profile): readonly StoredQuery[] => dbOf(profile).queries;

/** A GET route `/name/{id}` whose controller, `nameController`, answers what `handle` returns as JSON. */
export function route(name: string, handle: (id: number) => Promise<unknown>): RouteDefinition {
  return { name, path: `/${name}/{id}`, methods: ['GET'], controller: { name: `${name}Controller`, handle: async ({ params }) => LoupeResponse.json((await handle(Number(params['id']))) ?? { ok: true }) } };
}

/** The line of `file` holding `marker`, as an origin names it. */
export function lineOf(file: string, marker: string): number {
  const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(marker) && !line.includes(`'${marker}'`));
  if (index < 0) throw new Error(`No line of ${file} holds ${marker}.`);
  return index + 1;
}

/**
 * An origin in one word, as the compatibility table writes it: `line 12` (a frame of `file` on the
 * synchronous stack), `async line 12` (among V8's async frames), `issued by knex` (the request's
 * position and the library that sent the call), `elsewhere …` for any other file, `none`.
 */
export function originOf(origin: StoredOrigin | null, file: string): string {
  if (origin === null) return 'none';
  if (origin.found === 'request') return `issued by ${origin.library ?? '?'}`;
  if (origin.file !== file) return `elsewhere ${origin.file}:${origin.line}`;
  return `${origin.found === 'async' ? 'async ' : ''}line ${origin.line}`;
}

/** `originOf`'s words for the line of `file` holding `marker`: `at(file)('loop')`, `at(file)('loop', 'async')`. */
export function at(file: string): (marker: string, found?: 'async') => string {
  return (marker, found) => `${found === undefined ? '' : 'async '}line ${lineOf(file, marker)}`;
}

/**
 * The table `table` (id, name) on PostgreSQL, users 1 to 10, and on MariaDB, users 1, 2, 3 and 9;
 * answers the MariaDB pool that made it, to drop it with. Fails saying how to start a database that is down.
 */
export async function createUserTables(admin: pg.Pool, table: string): Promise<mysql.Pool> {
  try {
    await admin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
    await admin.query(`INSERT INTO ${table} SELECT g, 'user' || g FROM generate_series(1, 10) g`);
  } catch (error) {
    throw new Error(`${PG_DOWN} (${String(error)}).`);
  }
  const myAdmin = mysql.createPool({ ...MYSQL_SETTINGS, connectionLimit: 1 });
  try {
    await myAdmin.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name varchar(40))`);
    await myAdmin.query(`INSERT INTO ${table} VALUES (1, 'user1'), (2, 'user2'), (3, 'user3'), (9, 'user9')`);
  } catch (error) {
    throw new Error(`${MYSQL_DOWN} (${String(error)}).`);
  }
  return myAdmin;
}
