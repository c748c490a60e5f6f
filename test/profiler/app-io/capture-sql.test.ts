import test from 'ava';
import { spanName } from '../../../src/profiler/app-io/capture-sql';

test('a query\'s span names its verb and its table, as OpenTelemetry names database spans', (t) => {
  t.is(spanName('SELECT id, name FROM demo_users ORDER BY id'), 'sql SELECT demo_users');
  t.is(spanName('/* loader */ select count(*) from public.orders where id = $1'), 'sql SELECT public.orders');
  t.is(spanName('INSERT INTO `posts` (title) VALUES (?)'), 'sql INSERT posts');
  t.is(spanName('UPDATE users SET name = $1'), 'sql UPDATE users');
  t.is(spanName('DELETE FROM sessions WHERE expires < now()'), 'sql DELETE sessions');
});

test('a query with no table to name keeps its verb alone, and no value in a string or comment is taken for a table', (t) => {
  t.is(spanName('SELECT $1::int AS n'), 'sql SELECT');
  t.is(spanName('SELECT * FROM (SELECT 1) AS one'), 'sql SELECT');
  t.is(spanName("SELECT 'a FROM hunter2' AS x"), 'sql SELECT');
  t.is(spanName('SELECT "a FROM hunter2" -- FROM hunter3'), 'sql SELECT');
  t.is(spanName('   '), 'sql query');
});
