/** Whose SQL a statement is: PostgreSQL's, or MySQL's and MariaDB's. */
export type ExplainDialect = 'pg' | 'mysql';

/** A database EXPLAIN connects to, from PROFILER_EXPLAIN_DATABASE_URL. */
export interface ExplainDatabase {
  /** Taken from the URL's scheme: `postgres`/`postgresql` is `pg`, `mysql`/`mariadb` is `mysql`. */
  readonly dialect: ExplainDialect;
  /** The URL as configured (its password included: never shown, see hideUrlPassword). */
  readonly url: string;
}

/** What EXPLAIN of a stored query may use. */
export interface ExplainConfig {
  /** At most one database per dialect; none: EXPLAIN is off and says how to turn it on. */
  readonly databases: readonly ExplainDatabase[];
  /** Longest an EXPLAIN (or EXPLAIN ANALYZE, which runs the query) may run, in milliseconds. */
  readonly timeoutMs: number;
}

/** EXPLAIN off, with the default timeout. */
export const EXPLAIN_DEFAULTS: ExplainConfig = Object.freeze({ databases: Object.freeze([]), timeoutMs: 5_000 });

/** The URL schemes of each dialect. */
export const EXPLAIN_SCHEMES: Readonly<Record<string, ExplainDialect>> = Object.freeze({
  postgres: 'pg',
  postgresql: 'pg',
  mysql: 'mysql',
  mariadb: 'mysql',
});

/** `url` with the password of its `user:password@` part replaced by `***`, for every page and message that names it. */
export function hideUrlPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}

/** The database of `dialect` among `config`'s, if one is configured. */
export function explainDatabaseFor(config: ExplainConfig, dialect: ExplainDialect): ExplainDatabase | undefined {
  return config.databases.find((database) => database.dialect === dialect);
}
