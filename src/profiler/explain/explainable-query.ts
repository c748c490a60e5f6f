import { type StoredQuery } from '../app-io/analyze-calls';
import { sqlTokens, type SqlToken } from '../app-io/sql-text';
import { REDACTED } from '../collect/redaction-policy';
import { type ExplainDialect } from './explain-config';

/** A stored query EXPLAIN can run as it ran, or why not. */
export type ExplainableQuery =
  | { readonly ok: true; readonly dialect: ExplainDialect; readonly sql: string; readonly params: readonly unknown[] | Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly reason: string };

/** How cutText ends a value it shortened: what is left is not what ran. */
const CUT = /… \(cut: [\d,]+ more bytes[^)]*\)$/;
/** What RedactionPolicy.data stores instead of a value it cannot copy as it was. */
const NOT_COPIED = /^\((?:\d+ bytes|function|too deep|invalid date)\)$/;

/**
 * Reserved words that write inside a statement that starts with SELECT or WITH: a data-modifying
 * CTE (`WITH gone AS (DELETE … RETURNING *) SELECT …`) and `SELECT … INTO` (a new table in
 * PostgreSQL, variables or a file in MySQL). Other statements are told apart by their first word.
 */
const WRITES: ReadonlySet<string> = new Set(['insert', 'update', 'delete', 'merge', 'into']);

/** The dialect of a driver's name as the SQL collector stores it (`pg`, `mysql2`; postgres.js's `postgres`). */
export function dialectOfDriver(driver: string): ExplainDialect | null {
  if (driver.startsWith('mysql') || driver.startsWith('mariadb')) return 'mysql';
  if (driver === 'pg' || driver.startsWith('postgres')) return 'pg';
  return null;
}

function isWord(token: SqlToken): boolean {
  return token.type === 'identifier' && /^[A-Za-z_]/.test(token.text);
}

/** The tokens that are code: no blank, no comment. */
function codeTokens(sql: string, dialect: ExplainDialect): SqlToken[] {
  return sqlTokens(sql, dialect).filter((token) => token.type !== 'space' && !(token.type === 'other' && token.text.length > 1));
}

/** Why the statement is not one read-only SELECT, or `null` when it is. */
function statementProblem(tokens: readonly SqlToken[]): string | null {
  const first = tokens[0];
  const verb = first === undefined || !isWord(first) ? '' : first.text.toUpperCase();
  if (verb !== 'SELECT' && verb !== 'WITH') return `only a SELECT (or WITH … SELECT) is explained, since it only reads; this statement is ${verb === '' ? 'not one' : `${/^[AEIOU]/.test(verb) ? 'an' : 'a'} ${verb}`}.`;
  const last = tokens.length - 1;
  if (tokens.some((token, at) => token.text === ';' && at !== last)) return 'the text holds several statements; EXPLAIN takes one.';
  for (const [at, token] of tokens.entries()) {
    if (!isWord(token)) continue;
    const word = token.text.toLowerCase();
    const before = tokens[at - 1]?.text.toLowerCase();
    // `FOR UPDATE` and `FOR NO KEY UPDATE` lock the rows they read: a lock, not a write, and a read-only transaction refuses it anyway.
    if (word === 'update' && (before === 'for' || before === 'key')) continue;
    if (WRITES.has(word)) return `it holds ${token.text.toUpperCase()}, which writes or leaves the query: only a SELECT that only reads is explained.`;
  }
  return null;
}

function holdsRedaction(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(REDACTED) || CUT.test(value) || NOT_COPIED.test(value);
  if (depth > 4 || typeof value !== 'object' || value === null) return false;
  return Object.values(value).some((item) => holdsRedaction(item, depth + 1));
}

/**
 * Whether `query`, as the profile stored it, can be explained as it ran: a SELECT or WITH … SELECT
 * of a known driver, one statement, with its text and parameters kept whole — not redacted (a
 * statement naming a secret-looking column keeps `******` for each value), not cut, not replaced
 * by a description. The database is the judge of what a query does; this check says why in words
 * before asking it, and the read-only transaction is what holds.
 */
export function explainableQuery(query: StoredQuery): ExplainableQuery {
  const dialect = dialectOfDriver(query.driver);
  if (dialect === null) return { ok: false, reason: `queries of the driver "${query.driver}" are not explained; pg and mysql2 are.` };
  if (CUT.test(query.sql)) return { ok: false, reason: 'its text was cut to fit the profile (4 KiB of SQL are kept): what is left is not what ran.' };
  if (query.sql.includes(REDACTED)) return { ok: false, reason: 'its text was redacted (it names a secret-looking column or function): the values that ran are not kept.' };
  const problem = statementProblem(codeTokens(query.sql, dialect));
  if (problem !== null) return { ok: false, reason: problem };
  const { params } = query;
  if (holdsRedaction(params)) return { ok: false, reason: 'a parameter was redacted, cut or not kept as given (a secret-looking name, more than 256 bytes, a Buffer): the values that ran are not kept.' };
  if (params === null || params === undefined) return { ok: true, dialect, sql: query.sql, params: [] };
  if (Array.isArray(params)) return { ok: true, dialect, sql: query.sql, params };
  if (typeof params === 'object' && dialect === 'mysql') return { ok: true, dialect, sql: query.sql, params: params as Readonly<Record<string, unknown>> };
  return { ok: false, reason: 'its parameters are not a list the driver takes.' };
}
