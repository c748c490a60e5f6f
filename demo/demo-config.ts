/** What the demo application reads from the environment, besides Loupe's own settings (readConfig). */
export interface DemoConfig {
  /** PostgreSQL for the SQL routes (`DATABASE_URL`); `null`: they answer 503 and say how to turn them on. */
  readonly databaseUrl: string | null;
}

/** What the demo says wherever the SQL routes are off: the start line, the welcome page, their 503. */
export const SQL_ROUTES_HINT =
  'The SQL routes (/io/users, /io/users-n-plus-one) are off: set DATABASE_URL to a PostgreSQL database to turn them on, ' +
  'e.g. `make run DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres` (`docker compose up -d postgres` starts one).';

/**
 * Reads the demo's settings once, at start; the demo's only reader of `process.env`. The value of
 * an invalid DATABASE_URL is not repeated: it may hold a password.
 */
export function readDemoConfig(env: Readonly<Record<string, string | undefined>> = process.env): DemoConfig {
  const url = env['DATABASE_URL']?.trim() ?? '';
  if (url === '') return Object.freeze({ databaseUrl: null });
  if (!/^postgres(?:ql)?:\/\//.test(url)) throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL, e.g. postgres://postgres@127.0.0.1:5432/postgres.');
  return Object.freeze({ databaseUrl: url });
}
