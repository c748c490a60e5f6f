import { type ExplainOutput, type ExplainRun } from './explain-result';
import { loadAppDriver } from './load-app-driver';

/** What of pg's Client EXPLAIN uses (pg is the application's, never a dependency of Loupe). */
interface PgClient {
  connect(): Promise<unknown>;
  query(text: string, values?: readonly unknown[]): Promise<{ readonly rows: readonly Record<string, unknown>[] }>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

interface PgModule {
  readonly Client: new (config: Readonly<Record<string, unknown>>) => PgClient;
}

/** The statement without the `;` that may end it: EXPLAIN's options go before it. */
export function withoutFinalSemicolon(sql: string): string {
  return sql.replace(/;\s*$/, '');
}

/**
 * `EXPLAIN (FORMAT JSON)` — with ANALYZE and BUFFERS when asked, which runs the query — on a
 * connection of its own to `run.url`, inside `BEGIN READ ONLY` with a local statement_timeout,
 * always rolled back: a function the query calls that writes fails with "cannot execute INSERT in
 * a read-only transaction", and whatever ANALYZE did is undone. The connection is closed after.
 */
export async function explainOnPostgres(run: ExplainRun): Promise<ExplainOutput> {
  if (!Array.isArray(run.params)) throw new TypeError('pg takes its parameters as a list.');
  const { Client } = loadAppDriver('pg') as PgModule;
  const client = new Client({ connectionString: run.url, connectionTimeoutMillis: run.timeoutMs, application_name: 'loupe-explain', query_timeout: run.timeoutMs + 1_000 });
  // An error of an idle client (the server went away) is emitted, and would otherwise end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const version = await client.query('SHOW server_version');
    await client.query('BEGIN READ ONLY');
    try {
      await client.query(`SET LOCAL statement_timeout = ${Math.round(run.timeoutMs)}`);
      const statement = `EXPLAIN (${run.analyze ? 'ANALYZE, BUFFERS, ' : ''}FORMAT JSON) ${withoutFinalSemicolon(run.sql)}`;
      const result = await client.query(statement, run.params);
      const plan = result.rows[0]?.['QUERY PLAN'];
      return { dialect: 'pg', server: String(version.rows[0]?.['server_version'] ?? ''), analyze: run.analyze, statement, plan: typeof plan === 'string' ? (JSON.parse(plan) as unknown) : plan };
    } finally {
      // Failing, it must not hide the query's error: a transaction never committed ends with its connection anyway.
      await client.query('ROLLBACK').catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
