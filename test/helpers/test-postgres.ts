import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The tests' PostgreSQL: trust authentication, database `test`, user `postgres`. */
const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

const HOW_TO_START =
  'Start it with `bash scripts/ensure-postgres.sh` (`make postgres`): it runs ' +
  '`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` where PostgreSQL is installed, ' +
  'or `docker compose up -d postgres`; or set TEST_DATABASE_URL to a PostgreSQL you have.';

export interface TestPostgres {
  /** DATABASE_URL for the application: the test database, with this schema first in its search_path. */
  readonly url: string;
  readonly schema: string;
  /** Drops the schema and everything the application created in it. */
  drop(): Promise<void>;
}

/**
 * A schema of its own in the tests' PostgreSQL, so that test runs never see each other's tables;
 * the application's tables land in it through the URL's `search_path`. Fails with how to start
 * PostgreSQL when none answers.
 */
export async function useTestPostgres(): Promise<TestPostgres> {
  const schema = `loupe_test_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new Error(`No PostgreSQL answers at ${DATABASE_URL} (${error instanceof Error ? error.message : String(error)}). ${HOW_TO_START}`, { cause: error });
  }
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    schema,
    drop: async () => {
      try {
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
