import test from 'ava';
import { spanName } from '../../../src/profiler/app-io/capture-sql';

/** Statements and the span names OpenTelemetry would give them (`SELECT posts`), Loupe's with `sql` first. */
const NAMED: readonly (readonly [string, string])[] = [
  ['SELECT id, name FROM demo_users ORDER BY id', 'sql SELECT demo_users'],
  ['/* loader */ select count(*) from public.orders where id = $1', 'sql SELECT public.orders'],
  ['INSERT INTO `posts` (title) VALUES (?)', 'sql INSERT posts'],
  ['UPDATE users SET name = $1', 'sql UPDATE users'],
  ['DELETE FROM sessions WHERE expires < now()', 'sql DELETE sessions'],
  ['select "id", "name" from "users" where "users"."id" = $1', 'sql SELECT users'],
  ['insert into "public"."posts" ("title") values ($1)', 'sql INSERT public.posts'],
];

/** Statements with no table to name, or a value in a string or a comment where a table would be. */
const UNNAMED: readonly (readonly [string, string])[] = [
  ['SELECT $1::int AS n', 'sql SELECT'],
  ['SELECT * FROM (SELECT 1) AS one', 'sql SELECT'],
  ["SELECT 'a FROM hunter2' AS x", 'sql SELECT'],
  ['SELECT "a FROM hunter2" -- FROM hunter3', 'sql SELECT'],
  ['   ', 'sql query'],
];

test('a query\'s span names its verb and its table, as OpenTelemetry names database spans', (t) => {
  t.deepEqual(NAMED.map(([sql]) => spanName(sql)), NAMED.map(([, name]) => name));
});

test('a query with no table to name keeps its verb alone, and no value in a string or comment is taken for a table', (t) => {
  t.deepEqual(UNNAMED.map(([sql]) => spanName(sql)), UNNAMED.map(([, name]) => name));
});
