import test from 'ava';
import { batchRewrite } from '../../../src/profiler/app-io/batch-rewrite';

test('a PostgreSQL query whose one placeholder is compared with a column is batched with = ANY($1), saving all round trips but one', (t) => {
  t.deepEqual(batchRewrite('SELECT name FROM items WHERE id = $1', 'pg', 5), { sql: 'SELECT name FROM items WHERE id = ANY($1)', column: 'id', saved: 4 });
  t.deepEqual(batchRewrite('SELECT * FROM posts p WHERE p.deleted_at IS NULL AND p."user_id"=$1 ORDER BY p.id', 'pg', 12), {
    sql: 'SELECT * FROM posts p WHERE p.deleted_at IS NULL AND p."user_id" = ANY($1) ORDER BY p.id',
    column: 'p."user_id"',
    saved: 11,
  });
  t.is(batchRewrite('DELETE FROM sessions WHERE (user_id = $1)', 'pg', 3)?.sql, 'DELETE FROM sessions WHERE (user_id = ANY($1))');
});

test('a MySQL query is batched with IN and one placeholder per value, written out up to four', (t) => {
  t.deepEqual(batchRewrite('SELECT name FROM items WHERE `id` = ?', 'mysql', 3), { sql: 'SELECT name FROM items WHERE `id` IN (?, ?, ?)', column: '`id`', saved: 2 });
  t.is(batchRewrite('SELECT name FROM items WHERE id = ? LIMIT 1', 'mysql', 20)?.sql, 'SELECT name FROM items WHERE id IN (?, ?, ?, ?, …) LIMIT 1');
});

test('no rewrite when the placeholder is not alone beside a column of the WHERE: several placeholders, another operator, an expression, a string that looks like one', (t) => {
  for (const [sql, dialect] of [
    ['SELECT * FROM t WHERE a = $1 AND b = $2', 'pg'],
    ['SELECT * FROM t WHERE a > $1', 'pg'],
    ['SELECT * FROM t WHERE a = $1 + 1', 'pg'],
    ['SELECT * FROM t WHERE a = $1::int', 'pg'],
    ['SELECT * FROM t WHERE a + b = $1', 'pg'],
    ['SELECT * FROM t WHERE a = lower($1)', 'pg'],
    ['SELECT * FROM t WHERE a = $2', 'pg'],
    ["SELECT * FROM t WHERE a = 'x = ?'", 'mysql'],
    ['UPDATE t SET a = $1', 'pg'],
    ['SELECT * FROM t WHERE a = 1', 'pg'],
  ] as const) {
    t.is(batchRewrite(sql, dialect, 5), null, sql);
  }
});
