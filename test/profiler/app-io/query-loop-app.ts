import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import pg from 'pg';
import { LoupeResponse } from '../../../src';
import { profiledRequest, startIoApp, startUpstream, type IoApp } from './io-app';
import { redisConfigOf } from '../../helpers/test-server';

/** Rows in the table: the loop of `/loop` runs one query per row. */
export const ROWS = 5;

/** The profiles of one request to each route, by route. */
export interface QueryLoopTokens {
  /** 1 + ROWS queries, one shape run in a loop (N+1); 2 HTTP calls, 1 Redis command. */
  readonly loop: string;
  /** The same data in 1 query; 1 HTTP call, 3 Redis commands. */
  readonly joined: string;
  /** 4 queries of 4 shapes: many, but no loop. */
  readonly report: string;
}

export interface QueryLoopApp {
  readonly io: IoApp;
  /** The application's Redis key prefix: where the CLI reads its profiles. */
  readonly prefix: string;
  readonly table: string;
  readonly tokens: QueryLoopTokens;
  close(): Promise<void>;
}

/**
 * A Loupe application on the real PostgreSQL (`test` database, a table of its own, dropped by
 * `close`), the real Redis and an upstream, with one request profiled per route: the same
 * rows read in a loop, at once, and through several different queries.
 */
export async function startQueryLoopApp(): Promise<QueryLoopApp> {
  const table = `loupe_io_${randomBytes(6).toString('hex')}`;
  const key = `loupe-test-io:${table}`;
  const upstream = await startUpstream();
  const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
  const pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres', max: 2 });
  try {
    await pool.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, name text NOT NULL)`);
  } catch (error) {
    await pool.end();
    redis.disconnect();
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
  const io = await startIoApp([
    route('loop', async () => {
      await fetch(`${upstream.url}/json`);
      const { rows } = await pool.query<{ id: number }>(`SELECT id FROM ${table} ORDER BY id`);
      const names: string[] = [];
      for (const row of rows) names.push((await pool.query<{ name: string }>(`SELECT name FROM ${table} WHERE id = $1`, [row.id])).rows[0]?.name ?? '');
      await fetch(`${upstream.url}/status/404`);
      await redis.get(key);
      return names;
    }),
    route('joined', async () => {
      await fetch(`${upstream.url}/json`);
      await redis.set(key, '1');
      await redis.get(key);
      await redis.del(key);
      return (await pool.query<{ name: string }>(`SELECT id, name FROM ${table} ORDER BY id`)).rows.map((row) => row.name);
    }),
    route('report', async () => {
      const count = await pool.query(`SELECT count(*) AS n FROM ${table}`);
      const max = await pool.query(`SELECT max(id) AS n FROM ${table}`);
      const min = await pool.query(`SELECT min(id) AS n FROM ${table}`);
      const first = await pool.query(`SELECT name FROM ${table} ORDER BY id LIMIT 1`);
      return [count.rows, max.rows, min.rows, first.rows];
    }),
  ]);
  const close = async (): Promise<void> => {
    await io.close();
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
    await pool.end();
    await redis.del(key);
    redis.disconnect();
    await upstream.close();
  };
  try {
    const loop = (await profiledRequest(io, { path: '/loop' })).profile.token;
    const joined = (await profiledRequest(io, { path: '/joined' })).profile.token;
    const report = (await profiledRequest(io, { path: '/report' })).profile.token;
    return { io, prefix: redisConfigOf(io.app.config).prefix, table, tokens: { loop, joined, report }, close };
  } catch (error) {
    await close();
    throw error;
  }
}
