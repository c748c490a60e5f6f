import { REDACTED } from '../collect/redaction-policy';

/** Whose quoting rules a statement follows: MySQL's `"…"` is a string, PostgreSQL's an identifier. */
export type SqlDialect = 'mysql' | 'pg';

type TokenType = 'string' | 'number' | 'placeholder' | 'identifier' | 'operator' | 'space' | 'other';

/** One token of a statement: its kind and its text; a comment is an `other` longer than one character. */
export interface SqlToken {
  readonly type: TokenType;
  readonly text: string;
}

type Token = SqlToken;

/**
 * One alternative per group, in this order; a string that does not end runs to the end of the
 * statement (it is still a string, and still redacted). Group 2 is a dollar quote's tag.
 */
function tokenPattern(dialect: SqlDialect): RegExp {
  // MySQL reads `\'` inside any string; PostgreSQL only inside E'…' (standard_conforming_strings).
  const plain = dialect === 'mysql' ? String.raw`'(?:[^'\\]|\\[\s\S]|'')*'?` : String.raw`'(?:[^']|'')*'?`;
  const doubled = dialect === 'mysql' ? String.raw`"(?:[^"\\]|\\[\s\S]|"")*"?` : String.raw`"(?:[^"]|"")*"?`;
  return new RegExp(
    [
      String.raw`(\$([A-Za-z_][A-Za-z_0-9]*)?\$[\s\S]*?(?:\$\2\$|$))`,
      String.raw`((?<![\w$])[eE]'(?:[^'\\]|\\[\s\S]|'')*'?)`,
      `(${plain})`,
      `(${doubled})`,
      '(`[^`]*`?)',
      String.raw`(\$\d+|\?|(?<![:\w]):[A-Za-z_]\w*)`,
      String.raw`((?<![\w$])-?(?:0[xX][0-9A-Fa-f]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))`,
      String.raw`([A-Za-z_][\w$]*)`,
      '(<>|!=|<=|>=|=|<|>)',
      String.raw`(\s+)`,
      String.raw`(--[^\n]*|\/\*[\s\S]*?\*\/|[\s\S])`,
    ].join('|'),
    'g',
  );
}

const PATTERNS: Readonly<Record<SqlDialect, RegExp>> = { mysql: tokenPattern('mysql'), pg: tokenPattern('pg') };

function typesOf(dialect: SqlDialect): readonly (TokenType | null)[] {
  const doubled = dialect === 'mysql' ? 'string' : 'identifier';
  return ['string', null, 'string', 'string', doubled, 'identifier', 'placeholder', 'number', 'identifier', 'operator', 'space', 'other'];
}

const TYPES: Readonly<Record<SqlDialect, readonly (TokenType | null)[]>> = { mysql: typesOf('mysql'), pg: typesOf('pg') };

/**
 * Statements tokenized lately, by dialect: an application runs the same few texts again and again
 * (its placeholders keep values out of them), and each is read twice, for redaction and for its
 * shape. Bounded in count and in the length of a text kept.
 */
const RECENT: Readonly<Record<SqlDialect, Map<string, readonly Token[]>>> = { mysql: new Map(), pg: new Map() };
const RECENT_COUNT = 512;
const RECENT_LENGTH = 2048;

/** The tokens of `sql`, from the recent ones when it was read lately. */
function tokensOf(sql: string, dialect: SqlDialect): readonly Token[] {
  const recent = RECENT[dialect];
  const known = recent.get(sql);
  if (known !== undefined) return known;
  const tokens = tokenize(sql, dialect);
  if (sql.length <= RECENT_LENGTH) {
    // The oldest goes first: a text not seen for RECENT_COUNT others is read again.
    if (recent.size >= RECENT_COUNT) recent.delete(recent.keys().next().value as string);
    recent.set(sql, tokens);
  }
  return tokens;
}

/** Splits SQL into the tokens that matter here: literals, placeholders, identifiers, operators. */
function tokenize(sql: string, dialect: SqlDialect): Token[] {
  const pattern = PATTERNS[dialect];
  const types = TYPES[dialect];
  const tokens: Token[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(sql); match !== null; match = pattern.exec(sql)) {
    let type: TokenType = 'other';
    for (let group = 1; group < match.length; group++) {
      const found = types[group - 1];
      if (match[group] !== undefined && found !== null && found !== undefined) {
        type = found;
        break;
      }
    }
    tokens.push({ type, text: match[0] });
  }
  return tokens;
}

/**
 * The tokens of `sql` as `dialect` quotes it, as redaction and normalizeSql read them: what reads
 * a statement's words (its verb, a `;` between two statements, the form batchRewrite rewrites)
 * without taking a string's or a comment's text for them.
 */
export function sqlTokens(sql: string, dialect: SqlDialect): readonly SqlToken[] {
  return tokensOf(sql, dialect);
}

/**
 * The shape of a query, to group it with the others of its kind (Django Debug Toolbar's "similar"
 * queries): literals and placeholders are `?`, a list of them `(?)`, blanks one space.
 */
export function normalizeSql(sql: string): string {
  const text = tokensOf(sql, 'pg')
    .map((token) => (token.type === 'string' || token.type === 'number' || token.type === 'placeholder' ? '?' : token.type === 'space' ? ' ' : token.text))
    .join('')
    .trim();
  return text.replace(/\(\s*\?(?:\s*,\s*\?)*\s*\)/g, '(?)');
}

/**
 * Functions and keywords whose arguments are secrets whatever the columns are called: pgcrypto's
 * and MySQL's ciphers and hashes, `set_config` (a session's tenant key, a JWT claim), and
 * `CREATE USER … IDENTIFIED BY 'x'`.
 */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  'crypt', 'gen_salt', 'set_config', 'hmac', 'digest', 'encrypt', 'decrypt', 'encrypt_iv', 'decrypt_iv',
  'pgp_sym_encrypt', 'pgp_sym_decrypt', 'pgp_pub_encrypt', 'pgp_pub_decrypt',
  'pgp_sym_encrypt_bytea', 'pgp_sym_decrypt_bytea', 'pgp_pub_encrypt_bytea', 'pgp_pub_decrypt_bytea',
  'aes_encrypt', 'aes_decrypt', 'des_encrypt', 'des_decrypt', 'old_password', 'identified',
  'md5', 'sha', 'sha1', 'sha2',
]);

/** The words before `KEY` that make it SQL's keyword (`PRIMARY KEY`, `ON DUPLICATE KEY UPDATE`), not a column. */
const BEFORE_KEY_KEYWORD: ReadonlySet<string> = new Set(['primary', 'foreign', 'unique', 'duplicate']);

function unquote(identifier: string): string {
  const quote = identifier.charAt(0);
  if (quote !== '"' && quote !== '`') return identifier;
  return identifier.slice(1, identifier.length > 1 && identifier.endsWith(quote) ? -1 : undefined);
}

/** True when some identifier of `tokens` names a secret, or is a function or keyword that takes one. */
function namesASecret(tokens: readonly Token[], isSecret: (name: string) => boolean): boolean {
  let previous = '';
  for (const token of tokens) {
    if (token.type === 'space' || (token.type === 'other' && token.text.length > 1)) continue;
    if (token.type === 'identifier') {
      const name = unquote(token.text);
      const lower = name.toLowerCase();
      const keyword = lower === 'key' && token.text === name && BEFORE_KEY_KEYWORD.has(previous.toLowerCase());
      if (!keyword && (SECRET_WORDS.has(lower) || isSecret(name))) return true;
    }
    previous = token.text;
  }
  return false;
}

/** What a literal's text says, as an error message would repeat it: `'it''s'` → `it's`, `$$x$$` → `x`. */
function literalValues(text: string): string[] {
  const dollar = /^(\$[A-Za-z_0-9]*\$)([\s\S]*?)(?:\1)?$/.exec(text);
  if (dollar !== null) return [dollar[2] ?? ''];
  const quoted = /^[eE]?(['"])([\s\S]*?)\1?$/.exec(text);
  if (quoted === null) return [text];
  const body = quoted[2] ?? '';
  const quote = quoted[1] ?? "'";
  return [body, body.split(quote + quote).join(quote).replace(/\\([\s\S])/g, '$1')];
}

/** The texts of a parameter's value (an array's items too), as an error message would repeat them. */
function paramValues(value: unknown, into: string[], depth = 0): void {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') into.push(String(value));
  else if (Array.isArray(value) && depth < 4) for (const item of value) paramValues(item, into, depth + 1);
  else if (value instanceof Date) into.push(value.toISOString());
  else if (Buffer.isBuffer(value)) into.push(value.toString('utf8'));
}

/** `message` with every `values` it repeats replaced; a short one only as a whole word, not inside any. */
function redactMessage(message: string | null, values: readonly string[]): string | null {
  if (message === null) return null;
  let out = message;
  for (const value of [...new Set(values)].sort((a, b) => b.length - a.length)) {
    if (value === '') continue;
    if (value.length >= 4) out = out.split(value).join(REDACTED);
    else out = out.replace(new RegExp(`(?<![\\w])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'g'), REDACTED);
  }
  return out;
}

export interface SqlStatement {
  readonly sql: string;
  /** Positional (an array) or named (an object) parameters, as given to the driver. */
  readonly params: unknown;
  /** The driver's error message, when the statement failed. */
  readonly error?: string | null;
}

/**
 * The statement as a profile may keep it. One that names a secret — a column, table or function
 * that `isSecret` accepts, or a cipher, hash or `IDENTIFIED BY` — has every literal (strings,
 * dollar-quoted bodies, numbers) and every parameter replaced, in its text, in its parameters and
 * where its error message repeats one of them. Deciding which value goes with which column
 * (`lower(password) = $1`, `$1 = password`, `IN (…)`, `INSERT … SELECT`) is a parser's work that a
 * new form can always dodge; so any value of such a statement is taken as secret, a harmless one
 * with it. A statement that names no secret is returned as it was given.
 */
export function redactSql(statement: SqlStatement, isSecret: (name: string) => boolean, dialect: SqlDialect = 'pg'): Required<SqlStatement> {
  const { sql, params } = statement;
  const error = statement.error ?? null;
  const tokens = tokensOf(sql, dialect);
  if (!namesASecret(tokens, isSecret)) return { sql, params, error };
  const values: string[] = [];
  const text = tokens
    .map((token) => {
      if (token.type === 'number') {
        values.push(token.text.replace(/^-/, ''));
        return '0';
      }
      if (token.type !== 'string') return token.text;
      values.push(...literalValues(token.text));
      return `'${REDACTED}'`;
    })
    .join('');
  let redactedParams: unknown = params;
  if (Array.isArray(params)) {
    paramValues(params, values);
    redactedParams = params.map(() => REDACTED);
  } else if (typeof params === 'object' && params !== null) {
    paramValues(Object.values(params), values);
    redactedParams = Object.fromEntries(Object.keys(params).map((name) => [name, REDACTED]));
  }
  return { sql: text, params: redactedParams, error: redactMessage(error, values) };
}
