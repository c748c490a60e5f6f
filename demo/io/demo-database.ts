import { type Pool } from 'pg';
import { ServiceUnavailableHttpError } from '../../src';

/** The demo's rows, created on first use in the connection's schema (its `search_path`). */
const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS demo_users (id integer PRIMARY KEY, name text NOT NULL, email text NOT NULL)',
  'CREATE TABLE IF NOT EXISTS demo_orders (id integer PRIMARY KEY, user_id integer NOT NULL REFERENCES demo_users (id), total_cents integer NOT NULL)',
  `INSERT INTO demo_users (id, name, email) VALUES
     (1, 'Ada Lovelace', 'ada@example.com'), (2, 'Alan Turing', 'alan@example.com'), (3, 'Grace Hopper', 'grace@example.com'),
     (4, 'Edsger Dijkstra', 'edsger@example.com'), (5, 'Barbara Liskov', 'barbara@example.com')
   ON CONFLICT (id) DO NOTHING`,
  `INSERT INTO demo_orders (id, user_id, total_cents) VALUES
     (1, 1, 1200), (2, 1, 450), (3, 2, 9900), (4, 3, 300), (5, 3, 2500), (6, 3, 780), (7, 5, 6400)
   ON CONFLICT (id) DO NOTHING`,
];

/** Serializes the first use of several processes (WORKERS=N): two CREATE TABLE IF NOT EXISTS at once can still collide. */
const SCHEMA_LOCK = 'SELECT pg_advisory_xact_lock(hashtext($1))';

/**
 * The demo's PostgreSQL, through a `pg.Pool` as an application has one: the profiler captures its
 * queries with no code of the demo's, each with the line of the demo that sent it (hence the
 * pool, not a query wrapper of this class: a wrapper's line would be every query's origin). `pg` is loaded on first use only, so the demo runs without
 * it (and without DATABASE_URL) when its SQL routes are not wanted.
 */
export class DemoDatabase {
  readonly #url: string;
  readonly #warn: (message: string) => void;
  #pool: Promise<Pool> | null = null;

  constructor(url: string, warn: (message: string) => void) {
    this.#url = url;
    this.#warn = warn;
  }

  /** The pool, once its tables exist: a 503 saying so when the database does not answer. */
  pool(): Promise<Pool> {
    return this.#ready();
  }

  /** Ends the pool's connections, if it was ever opened. */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = null;
    if (pool !== null) await pool.then((opened) => opened.end()).catch(() => undefined);
  }

  /** The pool, its tables created and seeded on first use; a failed start is tried again by the next request. */
  #ready(): Promise<Pool> {
    this.#pool ??= this.#open().catch((error: unknown) => {
      this.#pool = null;
      throw new ServiceUnavailableHttpError('The demo database (DATABASE_URL) did not answer.', { cause: error });
    });
    return this.#pool;
  }

  async #open(): Promise<Pool> {
    const { Pool } = await import('pg');
    const pool = new Pool({ connectionString: this.#url, max: 5, connectionTimeoutMillis: 3_000 });
    // An idle connection the server dropped is reported, not thrown: it would end the process.
    pool.on('error', (error) => this.#warn(`The demo database's pool: ${error.message}`));
    try {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(SCHEMA_LOCK, ['loupe-demo-schema']);
        for (const statement of SCHEMA) await client.query(statement);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      return pool;
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }
}
