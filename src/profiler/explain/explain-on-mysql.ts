import { type ExplainOutput, type ExplainRun } from './explain-result';
import { withoutFinalSemicolon } from './explain-on-postgres';
import { loadAppDriver } from './load-app-driver';

/** What of a mysql2/promise connection EXPLAIN uses (mysql2 is the application's, never a dependency of Loupe). */
interface MysqlConnection {
  query(options: { readonly sql: string; readonly values?: unknown; readonly timeout?: number }): Promise<readonly [unknown, unknown]>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

interface MysqlModule {
  createConnection(options: Readonly<Record<string, unknown>>): Promise<MysqlConnection>;
}

/** The first column of the first row of a mysql2 result. */
function firstValue(result: readonly [unknown, unknown]): unknown {
  const [rows] = result;
  const row = Array.isArray(rows) ? (rows[0] as Record<string, unknown> | undefined) : undefined;
  return row === undefined ? undefined : Object.values(row)[0];
}

/**
 * EXPLAIN FORMAT=JSON on MariaDB and MySQL — with ANALYZE when asked, which runs the query:
 * `ANALYZE FORMAT=JSON` on MariaDB, `EXPLAIN ANALYZE` on MySQL (8.0.18 and later; a text tree) —
 * on a connection of its own to `run.url`, in `START TRANSACTION READ ONLY` with the session's
 * statement time capped (MariaDB's max_statement_time, MySQL's max_execution_time), always
 * rolled back, the connection closed after. Tested against MariaDB; MySQL's forms are its
 * documented ones, untested here.
 */
export async function explainOnMysql(run: ExplainRun): Promise<ExplainOutput> {
  const mysql = loadAppDriver('mysql2/promise') as MysqlModule;
  // mysql2 reads the URL's user, password, host, port and database; `mariadb://` is the same protocol.
  const uri = run.url.replace(/^mariadb:/i, 'mysql:');
  const connection = await mysql.createConnection({ uri, connectTimeout: run.timeoutMs, namedPlaceholders: !Array.isArray(run.params), multipleStatements: false });
  connection.on('error', () => undefined);
  // The client's own limit, past the server's: a server that ignores its cap does not hold the page.
  const timeout = run.timeoutMs + 1_000;
  try {
    const server = String(firstValue(await connection.query({ sql: 'SELECT VERSION()', timeout })) ?? '');
    const isMariaDb = /mariadb/i.test(server);
    await connection.query({ sql: isMariaDb ? `SET SESSION max_statement_time = ${run.timeoutMs / 1000}` : `SET SESSION max_execution_time = ${Math.round(run.timeoutMs)}`, timeout });
    await connection.query({ sql: 'START TRANSACTION READ ONLY', timeout });
    try {
      const prefix = run.analyze ? (isMariaDb ? 'ANALYZE FORMAT=JSON' : 'EXPLAIN ANALYZE') : 'EXPLAIN FORMAT=JSON';
      const statement = `${prefix} ${withoutFinalSemicolon(run.sql)}`;
      const answer = firstValue(await connection.query({ sql: statement, values: run.params, timeout }));
      const isText = run.analyze && !isMariaDb;
      const plan = typeof answer === 'string' && !isText ? (JSON.parse(answer) as unknown) : answer;
      return { dialect: 'mysql', server, analyze: run.analyze, statement, plan };
    } finally {
      // Failing, it must not hide the query's error: a transaction never committed ends with its connection anyway.
      await connection.query({ sql: 'ROLLBACK', timeout }).catch(() => undefined);
    }
  } finally {
    await connection.end().catch(() => undefined);
  }
}
