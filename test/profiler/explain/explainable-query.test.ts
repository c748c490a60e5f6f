import test from 'ava';
import { type StoredQuery } from '../../../src/profiler/app-io/analyze-calls';
import { explainableQuery } from '../../../src/profiler/explain/explainable-query';

function query(sql: string, params: unknown = [], driver = 'pg'): StoredQuery {
  return { start: 0, duration: 1, error: null, origin: null, driver, sql, params, database: 'app', rows: 1 };
}

function reason(sql: string, params: unknown = [], driver = 'pg'): string {
  const result = explainableQuery(query(sql, params, driver));
  return result.ok ? 'ok' : result.reason;
}

test('a SELECT, a WITH … SELECT and a SELECT … FOR UPDATE are explained, comments and a final semicolon included', (t) => {
  t.is(reason('SELECT * FROM posts WHERE id = $1', [1]), 'ok');
  t.is(reason('/* list */ with recent as (select * from posts) select * from recent;'), 'ok');
  t.is(reason('SELECT * FROM posts FOR UPDATE'), 'ok');
  t.is(reason('SELECT * FROM posts FOR NO KEY UPDATE'), 'ok');
  t.is(reason("SELECT 'a;b', \"x;y\" FROM t -- trailing; comment"), 'ok');
  t.is(reason("SELECT * FROM t WHERE note = 'DELETE FROM t; INSERT'"), 'ok');
  t.is(reason('SELECT * FROM t WHERE name = :name', { name: 'x' }, 'mysql2'), 'ok');
  t.like(explainableQuery(query('SELECT 1', null)), { ok: true, dialect: 'pg', params: [] });
  t.like(explainableQuery(query('SELECT 1', [], 'mysql2')), { ok: true, dialect: 'mysql' });
});

test('other statements, several statements and statements that write from inside a SELECT are refused, each saying why', (t) => {
  t.regex(reason('UPDATE posts SET title = $1', ['x']), /this statement is an UPDATE/);
  t.regex(reason('  delete from posts'), /this statement is a DELETE/);
  t.regex(reason('SELECT 1; SELECT 2'), /several statements/);
  t.regex(reason('SELECT 1; DROP TABLE posts'), /several statements/);
  t.regex(reason('WITH gone AS (DELETE FROM posts RETURNING *) SELECT * FROM gone'), /DELETE, which writes/);
  t.regex(reason('SELECT * INTO copy FROM posts'), /INTO, which writes/);
  t.regex(reason('SELECT id INTO @id FROM posts', [], 'mysql2'), /INTO/);
  t.regex(reason('-- only a comment'), /this statement is not one/);
});

test('a query the profile did not keep whole is refused: redacted, cut, a Buffer, or of an unknown driver', (t) => {
  t.regex(reason('SELECT id FROM users WHERE password = $1', ['******']), /a parameter was redacted/);
  t.regex(reason('SELECT id FROM users WHERE url = $1', ['https://u:******@h/']), /a parameter was redacted/);
  t.regex(reason("SELECT id FROM users WHERE password = '******'"), /its text was redacted/);
  t.regex(reason('SELECT id FROM t WHERE v = $1', ['abc… (cut: 1,024 more bytes)']), /cut/);
  t.regex(reason('SELECT id FROM t WHERE v = $1', ['(12 bytes)']), /not kept as given/);
  t.regex(reason('SELECT id FROM t WHERE v = $1', [['a', { deep: '******' }]]), /redacted/);
  t.regex(reason('SELECT id FROM t… (cut: 9,000 more bytes)'), /its text was cut/);
  t.regex(reason('SELECT 1', [], 'mongodb'), /driver "mongodb" are not explained/);
  t.regex(reason('SELECT * FROM t WHERE id = $1', { id: 1 }), /not a list/);
});
