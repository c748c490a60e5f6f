import test from 'ava';
import { normalizeSql, redactSql, type SqlDialect } from '../../../src/profiler/app-io/sql-text';
import { REDACTED, RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';

const policy = new RedactionPolicy();
const isSecret = (name: string): boolean => policy.isSecretName(name);

function redacted(sql: string, params: unknown = [], dialect: SqlDialect = 'pg', error: string | null = null): string {
  return JSON.stringify(redactSql({ sql, params, error }, isSecret, dialect));
}

/** Each form once, with a marker of its own: none of them may keep it. */
const FORMS: readonly [string, string, unknown, SqlDialect?][] = [
  ['IN with a literal and a parameter', "SELECT 1 FROM users WHERE password IN ('SECRETIN1', $1)", ['SECRETIN2']],
  ['NOT LIKE', "SELECT 1 FROM users WHERE password NOT LIKE 'SECRETNOTLIKE%'", []],
  ['a regular expression match', "SELECT 1 FROM users WHERE password ~ 'SECRETTILDE'", []],
  ['SIMILAR TO', "SELECT 1 FROM users WHERE password SIMILAR TO 'SECRETSIMILAR'", []],
  ['the parameter first', 'SELECT 1 FROM users WHERE $1 = password', ['SECRETREVERSED']],
  ['= ANY of an array', 'SELECT 1 FROM users WHERE password = ANY($1)', [['SECRETANY1', 'SECRETANY2']]],
  ['an E string with an escaped quote', String.raw`SELECT 1 FROM users WHERE password = E'SECRETESTRING\'s'`, []],
  ['a dollar-quoted body', 'SELECT 1 FROM users WHERE password = $$SECRETDOLLAR$$', []],
  ['a tagged dollar-quoted body', "SELECT 1 FROM users WHERE password = $tag$SECRETTAGGED 'q$tag$", []],
  ['a parenthesized parameter', 'SELECT 1 FROM users WHERE password = ($1)', ['SECRETPAREN']],
  ['a cast', 'SELECT 1 FROM users WHERE password = CAST($1 AS text)', ['SECRETCAST']],
  ['a function of the column', 'SELECT 1 FROM users WHERE lower(password) = $1', ['SECRETLOWERCOL']],
  ['a function of the value', "SELECT 1 FROM users WHERE password = lower('SECRETLOWERVAL')", []],
  ['IS DISTINCT FROM', 'SELECT 1 FROM users WHERE password IS DISTINCT FROM $1', ['SECRETDISTINCT']],
  ['BETWEEN', "SELECT 1 FROM users WHERE password BETWEEN 'SECRETBETWEEN1' AND 9817263", []],
  ['INSERT … SELECT', 'INSERT INTO users (name, password) SELECT $1, $2', ['n', 'SECRETINSERTSELECT']],
  ['INSERT … VALUES without columns into a secret table', "INSERT INTO api_tokens VALUES (1, 'SECRETNOCOLUMNS')", []],
  ['a quoted column', 'UPDATE users SET "Password" = $1', ['SECRETQUOTEDCOL']],
  ['a backquoted column', 'UPDATE users SET `password` = ?', ['SECRETBACKTICK'], 'mysql'],
  ['a MySQL double-quoted string', 'UPDATE users SET password = "SECRETMYDOUBLE"', [], 'mysql'],
  ['pgcrypto', "SELECT crypt('SECRETCRYPT', gen_salt('bf'))", []],
  ['set_config', "SELECT set_config('app.tenant', 'SECRETSETCONFIG', false)", []],
  ['CREATE USER … IDENTIFIED BY', "CREATE USER 'u'@'%' IDENTIFIED BY 'SECRETIDENTIFIED'", [], 'mysql'],
  ['MySQL PASSWORD()', "SELECT PASSWORD('SECRETMYPASSWORDFN')", [], 'mysql'],
  ['AES_ENCRYPT', 'SELECT AES_ENCRYPT(?, ?)', ['x', 'SECRETAES'], 'mysql'],
  ['named parameters', 'UPDATE users SET password = :pw WHERE id = :id', { pw: 'SECRETNAMED', id: 3 }, 'mysql'],
  ['a number', 'UPDATE users SET pin_password = 48213579', []],
];

for (const [form, sql, params, dialect] of FORMS) {
  test(`a statement naming a secret keeps none of its values: ${form}`, (t) => {
    const out = redacted(sql, params, dialect);
    const markers = `${sql} ${JSON.stringify(params)}`.match(/SECRET[A-Z0-9]+|\d{7,}/g) ?? [];
    t.true(markers.length > 0);
    for (const marker of markers) t.false(out.includes(marker), `${marker} kept in ${out}`);
    t.true(out.includes(REDACTED) || out.includes(' 0'), out);
  });
}

test('every parameter of a secret statement is replaced, a harmless one with the others', (t) => {
  t.deepEqual(redactSql({ sql: 'SELECT id FROM users WHERE name = $1 AND password = $2', params: ['ada', 'SECRETPG'] }, isSecret).params, [REDACTED, REDACTED]);
  t.deepEqual(redactSql({ sql: 'UPDATE users SET password = :pw WHERE id = :id', params: { pw: 'SECRETNAMED', id: 3 } }, isSecret, 'mysql').params, { pw: REDACTED, id: REDACTED });
});

test('the error message of a secret statement loses every value it repeats', (t) => {
  const out = redactSql(
    { sql: "INSERT INTO users (id, password) VALUES (7, 'SECRETLIT''S')", params: [], error: 'duplicate key value violates unique constraint: Key (password)=(SECRETLIT\'S) already exists; also SECRETPARAM' },
    isSecret,
  );
  t.false(out.error?.includes('SECRETLIT') ?? true, out.error ?? '');
  const withParam = redactSql({ sql: 'UPDATE users SET password = $1', params: ['SECRETPARAM'], error: 'value "SECRETPARAM" too long' }, isSecret);
  t.is(withParam.error, `value "${REDACTED}" too long`);
});

test('a statement that names no secret is kept as it was, its values with it', (t) => {
  const statement = { sql: "SELECT id FROM users WHERE name = $1 AND city = 'VISIBLECITY' LIMIT 10", params: ['VISIBLENAME'], error: null };
  const out = redactSql(statement, isSecret);
  t.is(out.sql, statement.sql);
  t.is(out.params, statement.params);
  t.true(redacted('SELECT id FROM users WHERE zip_code = $1 AND status_code = 200', ['VISIBLEZIP']).includes('VISIBLEZIP'));
});

test('KEY as SQL’s keyword does not make a statement secret; a column named key does', (t) => {
  for (const sql of [
    'INSERT INTO t (id, name) VALUES (?, ?) ON DUPLICATE KEY UPDATE name = name',
    'CREATE TABLE t (id int PRIMARY KEY, name text, UNIQUE KEY (name), FOREIGN KEY (id) REFERENCES u (id))',
  ]) {
    t.true(redacted(sql, [99, 'VISIBLEINSERT'], 'mysql').includes('VISIBLEINSERT'), sql);
  }
  t.false(redacted('SELECT value FROM settings WHERE `key` = ?', ['SECRETKEYCOL'], 'mysql').includes('SECRETKEYCOL'));
});

test('PostgreSQL reads a double-quoted name as a column, MySQL as a string', (t) => {
  t.false(redacted('SELECT 1 FROM t WHERE "password" = \'SECRETPGQUOTED\'', [], 'pg').includes('SECRETPGQUOTED'));
  t.true(redacted('SELECT 1 FROM t WHERE name = "password" AND city = \'VISIBLEMY\'', [], 'mysql').includes('VISIBLEMY'));
});

test('a dollar-quoted body is one literal: what it quotes is neither a name nor a string end', (t) => {
  t.true(redacted("SELECT $body$it's the password$body$ AS note, 'VISIBLEAFTER'").includes('VISIBLEAFTER'));
  t.is(normalizeSql("SELECT $$a 'b' c$$, $1, 'x''y', -2.5"), 'SELECT ?, ?, ?, ?');
});
