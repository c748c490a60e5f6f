import { currentRequest } from '../../src';
import { type DemoDatabase } from './demo-database';

export interface DemoUser {
  readonly id: number;
  readonly name: string;
  readonly email: string;
}

export interface UserWithOrders extends DemoUser {
  readonly orders: number;
}

/**
 * Runs `query` in a span of the current request's Performance panel, with a line in its log:
 * a repository three calls below the controller reaches the request through `currentRequest()`
 * instead of being handed its stopwatch. Outside a request it only runs the query.
 */
function timed<T>(name: string, query: () => Promise<T>): Promise<T> {
  const current = currentRequest();
  if (current === undefined) return query();
  current.log('debug', `users: ${name}`);
  return current.stopwatch.span(`users.${name}`, () => query(), 'db');
}

/** The demo's users and their orders, in PostgreSQL. */
export class UserRepository {
  readonly #database: DemoDatabase;

  constructor(database: DemoDatabase) {
    this.#database = database;
  }

  /** Every user with their number of orders, in one query. */
  withOrderCounts(): Promise<UserWithOrders[]> {
    return timed('withOrderCounts', async () => {
      const pool = await this.#database.pool();
      const { rows } = await pool.query<UserWithOrders>(
        'SELECT u.id, u.name, u.email, count(o.id)::int AS orders FROM demo_users u LEFT JOIN demo_orders o ON o.user_id = u.id GROUP BY u.id ORDER BY u.id',
      );
      return rows;
    });
  }

  all(): Promise<DemoUser[]> {
    return timed('all', async () => {
      const pool = await this.#database.pool();
      return (await pool.query<DemoUser>('SELECT id, name, email FROM demo_users ORDER BY id')).rows;
    });
  }

  /** One user's orders: called once per user, this is the N+1 the profiler flags. */
  countOrders(userId: number): Promise<number> {
    return timed('countOrders', async () => {
      const pool = await this.#database.pool();
      const { rows } = await pool.query<{ orders: number }>('SELECT count(*)::int AS orders FROM demo_orders WHERE user_id = $1', [userId]);
      return rows[0]?.orders ?? 0;
    });
  }
}
