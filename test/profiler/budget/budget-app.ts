import { redisConfigOf } from '../../helpers/test-server';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { LoupeResponse, type RouteDefinition } from '../../../src';
import { startIoApp, startUpstream, type IoApp } from '../app-io/io-app';

/** Rows in the table: `/loop` runs one query per row. */
export const ROWS = 5;
/** How long `/slow` sleeps in PostgreSQL, in milliseconds. */
export const SLOW_MS = 2500;

export interface BudgetApp {
  readonly io: IoApp;
  /** The application's Redis key prefix: where the CLI and the test helper read its profiles. */
  readonly prefix: string;
  readonly table: string;
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * A Loupe application on the real PostgreSQL (a table of its own in the `test` database, dropped
 * by `close`) and the real Redis, with one route per way of going over a budget: `/clean` reads
 * the rows at once, `/loop` one by one (N+1), `/duplicate` twice the same, `/failing` a table that
 * does not exist and an upstream answering 502, `/slow` sleeps SLOW_MS in PostgreSQL; then the
 * routes `more` makes on the same pool and table.
 */
export async function startBudgetApp(more: (pool: pg.Pool, table: string) => RouteDefinition[] = () => []): Promise<BudgetApp> {
  const table = `loupe_budget_${randomBytes(6).toString('hex')}`;
  const upstream = await startUpstream();
  const pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres', max: 2 });
  try {
    await pool.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, name text NOT NULL)`);
  } catch (error) {
    await pool.end();
    await upstream.close();
    throw new Error('These tests need PostgreSQL on 127.0.0.1:5432 (user postgres, trust, database "test").', { cause: error });
  }
  await pool.query(`INSERT INTO ${table} SELECT n, 'item ' || n FROM generate_series(1, ${ROWS}) AS n`);
  const route = (name: string, handle: () => Promise<unknown>): Parameters<typeof startIoApp>[0][number] => ({
    name,
    path: `/${name}`,
    methods: ['GET'],
    controller: { name, handle: async () => LoupeResponse.json(await handle()) },
  });
  const names = async (): Promise<string[]> => (await pool.query<{ name: string }>(`SELECT id, name FROM ${table} ORDER BY id`)).rows.map((row) => row.name);
  const io = await startIoApp([
    route('clean', names),
    route('loop', async () => {
      const { rows } = await pool.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`);
      const found: string[] = [];
      for (const row of rows) found.push((await pool.query<{ name: string }>(`SELECT name FROM ${table} WHERE id = $1`, [row.id])).rows[0]?.name ?? '');
      return found;
    }),
    route('duplicate', async () => [await names(), await names()]),
    route('failing', async () => {
      const missing = await pool.query(`SELECT * FROM ${table}_missing`).then(
        () => 'found',
        () => 'missing',
      );
      return { missing, upstream: (await fetch(`${upstream.url}/status/502`)).status };
    }),
    route('slow', async () => (await pool.query(`SELECT pg_sleep(${SLOW_MS / 1000}) AS slept`)).rowCount),
    ...more(pool, table),
  ]);
  return {
    io,
    prefix: redisConfigOf(io.app.config).prefix,
    table,
    baseUrl: `http://127.0.0.1:${io.port}`,
    close: async () => {
      await io.close();
      await pool.query(`DROP TABLE IF EXISTS ${table}`);
      await pool.end();
      await upstream.close();
    },
  };
}
