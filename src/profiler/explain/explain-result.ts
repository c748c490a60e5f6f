import { type ExplainDialect } from './explain-config';

/** What the database answered to EXPLAIN, before it is read as a tree. */
export interface ExplainOutput {
  readonly dialect: ExplainDialect;
  /** The server's version string (`16.4`, `10.11.19-MariaDB…`, `8.4.0`). */
  readonly server: string;
  /** Whether the query ran (EXPLAIN ANALYZE) or was only planned. */
  readonly analyze: boolean;
  /** The statement sent, EXPLAIN and its options before the query. */
  readonly statement: string;
  /** The plan as JSON (PostgreSQL, MariaDB, MySQL's EXPLAIN), or as the server's text (MySQL's EXPLAIN ANALYZE: a tree only). */
  readonly plan: unknown;
}

/** How an EXPLAIN runs: the statement, its parameters, where, and for how long at most. */
export interface ExplainRun {
  readonly url: string;
  readonly sql: string;
  readonly params: readonly unknown[] | Readonly<Record<string, unknown>>;
  readonly analyze: boolean;
  readonly timeoutMs: number;
}
