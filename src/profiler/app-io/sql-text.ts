import { REDACTED } from '../collect/redaction-policy';

type TokenType = 'string' | 'number' | 'placeholder' | 'identifier' | 'operator' | 'space' | 'other';

interface Token {
  readonly type: TokenType;
  readonly text: string;
}

const TOKEN =
  /('(?:[^'\\]|\\.|'')*'?)|("(?:[^"]|"")*"?|`[^`]*`?)|(\$\d+|\?|(?<![:\w]):[A-Za-z_]\w*)|((?<![\w$])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|([A-Za-z_][\w$]*)|(<>|!=|<=|>=|=|<|>)|(\s+)|(--[^\n]*|\/\*[\s\S]*?\*\/|.)/g;

const TYPES: readonly TokenType[] = ['string', 'identifier', 'placeholder', 'number', 'identifier', 'operator', 'space', 'other'];

/** Splits SQL into the tokens that matter here: literals, placeholders, identifiers, operators. */
function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  for (const match of sql.matchAll(TOKEN)) {
    const group = match.slice(1).findIndex((part) => part !== undefined);
    tokens.push({ type: TYPES[group] ?? 'other', text: match[0] });
  }
  return tokens;
}

/**
 * The shape of a query, to group it with the others of its kind (Django Debug Toolbar's "similar"
 * queries): literals and placeholders are `?`, a list of them `(?)`, blanks one space.
 */
export function normalizeSql(sql: string): string {
  const text = tokenize(sql)
    .map((token) => (token.type === 'string' || token.type === 'number' || token.type === 'placeholder' ? '?' : token.type === 'space' ? ' ' : token.text))
    .join('')
    .trim();
  return text.replace(/\(\s*\?(?:\s*,\s*\?)*\s*\)/g, '(?)');
}

const COMPARISONS: ReadonlySet<string> = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', 'like', 'ilike']);
const VALUE_TYPES: ReadonlySet<TokenType> = new Set(['string', 'number', 'placeholder']);

function unquote(identifier: string): string {
  const last = identifier.split('.').at(-1) ?? identifier;
  return /^["`]/.test(last) ? last.slice(1, -1) : last;
}

/** Indexes of the value tokens bound to a column whose name `isSecret`: `password = $1`, `INSERT (…, token) VALUES (…, ?)`. */
function secretValues(tokens: readonly Token[], isSecret: (name: string) => boolean): Set<number> {
  const secret = new Set<number>();
  const solid = tokens.map((token, index) => ({ token, index })).filter(({ token }) => token.type !== 'space');
  for (let i = 2; i < solid.length; i++) {
    const value = solid[i];
    const operator = solid[i - 1];
    const column = solid[i - 2];
    if (value === undefined || operator === undefined || column === undefined || !VALUE_TYPES.has(value.token.type)) continue;
    if (!COMPARISONS.has(operator.token.text.toLowerCase()) || column.token.type !== 'identifier') continue;
    if (isSecret(unquote(column.token.text))) secret.add(value.index);
  }
  // INSERT INTO t (a, b) VALUES (…, …), (…, …): the n-th value of each row goes to the n-th column.
  const insert = solid.findIndex(({ token }) => token.text.toLowerCase() === 'insert');
  if (insert === -1) return secret;
  let at = solid.findIndex(({ token }, index) => index > insert && token.text === '(');
  const columns: string[] = [];
  for (at += 1; at > 0 && at < solid.length && solid[at]?.token.text !== ')'; at++) {
    const token = solid[at]?.token;
    if (token?.type === 'identifier') columns.push(unquote(token.text));
  }
  const values = solid.findIndex(({ token }, index) => index > at && token.text.toLowerCase() === 'values');
  if (values === -1) return secret;
  let depth = 0;
  let column = 0;
  for (let i = values + 1; i < solid.length; i++) {
    const entry = solid[i];
    if (entry === undefined) break;
    const { text, type } = entry.token;
    if (text === '(') {
      depth += 1;
      if (depth === 1) column = 0;
    } else if (text === ')') depth -= 1;
    else if (text === ',' && depth === 1) column += 1;
    else if (depth === 1 && VALUE_TYPES.has(type) && isSecret(columns[column] ?? '')) secret.add(entry.index);
    else if (depth === 0 && type === 'identifier') break;
  }
  return secret;
}

/**
 * The query with what it binds to a secret-looking column replaced (`password = 'x'` →
 * `password = '******'`), and its parameters with the bound ones replaced too. Positional
 * parameters have no name of their own: the column they are compared with or inserted into
 * names them. Named parameters (an object) are left to the caller's redaction by name.
 */
export function redactSql(sql: string, params: unknown, isSecret: (name: string) => boolean): { sql: string; params: unknown } {
  const tokens = tokenize(sql);
  const secret = secretValues(tokens, isSecret);
  if (secret.size === 0) return { sql, params };
  const redactedParams: unknown = Array.isArray(params) ? [...params] : params;
  let ordinal = 0;
  const text = tokens
    .map((token, index) => {
      const position = token.type === 'placeholder' ? (token.text === '?' ? ordinal++ : token.text.startsWith('$') ? Number(token.text.slice(1)) - 1 : -1) : -1;
      if (!secret.has(index)) return token.text;
      if (token.type !== 'placeholder') return token.type === 'number' ? '0' : `'${REDACTED}'`;
      if (Array.isArray(redactedParams) && position >= 0 && position < redactedParams.length) redactedParams[position] = REDACTED;
      else if (typeof redactedParams === 'object' && redactedParams !== null && token.text.startsWith(':')) (redactedParams as Record<string, unknown>)[token.text.slice(1)] = REDACTED;
      return token.text;
    })
    .join('');
  return { sql: text, params: redactedParams };
}
