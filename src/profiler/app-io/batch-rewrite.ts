import { type QueryGroup, type StoredQuery } from './analyze-calls';
import { sqlTokens, type SqlDialect, type SqlToken } from './sql-text';

/** How a query run in a loop reads as one: the batched statement and what it saves. */
export interface BatchRewrite {
  /** The statement with its `col = $1` as `col = ANY($1)` (PostgreSQL) or `col IN (?, ?, …)` (MySQL). */
  readonly sql: string;
  /** The column the loop's values are compared with. */
  readonly column: string;
  /** Round trips the batched statement saves: the loop's count less one. */
  readonly saved: number;
}

/** Words after which `col = $1` is a condition of its own: batching it changes no other part of the WHERE. */
const CONDITION_START: ReadonlySet<string> = new Set(['where', 'and', '(']);
/** Placeholders of a MySQL `IN` list written out; past it, `…`. */
const LISTED = 4;

/** Comments and blanks carry no meaning here. */
const isBlank = (token: SqlToken): boolean => token.type === 'space' || (token.type === 'other' && token.text.length > 1);

function inList(count: number): string {
  const marks = Array.from({ length: Math.min(count, LISTED) }, () => '?');
  return `IN (${marks.join(', ')}${count > LISTED ? ', …' : ''})`;
}

/**
 * The batched form of `sql`, run `count` times in a loop (an N+1 group), when its one
 * placeholder is compared by `=` with a column in its WHERE — `WHERE id = $1`, `AND t.user_id = ?`
 * — as Doctrine's and Django's docs tell to fetch such rows at once: `= ANY($1)` with an array
 * on PostgreSQL, `IN (…)` with one placeholder per value on MySQL. `null` for any other form
 * (several placeholders, another operator, an expression around the value), which has no
 * rewrite that is surely the same query.
 */
export function batchRewrite(sql: string, dialect: SqlDialect, count: number): BatchRewrite | null {
  const tokens = sqlTokens(sql, dialect);
  const placeholders = tokens.filter((token) => token.type === 'placeholder');
  const [only] = placeholders;
  if (placeholders.length !== 1 || only === undefined || (only.text !== '$1' && only.text !== '?')) return null;
  const at = tokens.indexOf(only);
  const meaningful = (from: number, step: 1 | -1): number => {
    let index = from;
    while (index >= 0 && index < tokens.length && isBlank(tokens[index] as SqlToken)) index += step;
    return index;
  };
  const equals = meaningful(at - 1, -1);
  if (tokens[equals]?.text !== '=') return null;
  // The column, qualified or not: identifiers joined by dots, read backwards.
  let start = meaningful(equals - 1, -1);
  if (tokens[start]?.type !== 'identifier') return null;
  while (tokens[start - 1]?.text === '.' && tokens[start - 2]?.type === 'identifier') start -= 2;
  const before = tokens[meaningful(start - 1, -1)]?.text.toLowerCase() ?? '';
  if (!CONDITION_START.has(before)) return null;
  const after = tokens[meaningful(at + 1, 1)];
  // The value must stand alone: `= $1 + 1`, `= $1::int`, `= ?)` of a function call change its meaning.
  if (after !== undefined && !(after.type === 'identifier' || after.text === ';' || (after.text === ')' && before === '('))) return null;
  const column = tokens.slice(start, equals).filter((token) => !isBlank(token)).map((token) => token.text).join('');
  const batched = dialect === 'pg' ? `= ANY(${only.text})` : inList(count);
  const head = tokens.slice(0, equals).map((token) => token.text).join('');
  const text = `${head}${/\s$/.test(head) ? '' : ' '}${batched}${tokens.slice(at + 1).map((token) => token.text).join('')}`;
  return { sql: text, column, saved: Math.max(0, count - 1) };
}

/** The batched form of an N+1 group, from its first query's own text and driver; `null` for a group that is no N+1. */
export function groupBatchRewrite(group: QueryGroup, queries: readonly StoredQuery[]): BatchRewrite | null {
  const first = group.nPlusOne ? queries[group.queries[0] ?? -1] : undefined;
  if (first === undefined) return null;
  // mysql2 binds `?`, pg `$1`: the driver says whose quoting rules the text follows, as for redaction.
  return batchRewrite(first.sql, first.driver.startsWith('mysql') ? 'mysql' : 'pg', group.count);
}
