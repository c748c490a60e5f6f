import test from 'ava';
import { queryShapeChanges, queryShapesOf } from '../../../src/profiler/app-io/query-shape-changes';

const profileRunning = (...sql: string[]): { collectors: Record<string, object> } => ({ collectors: { db: { queries: sql.map((text) => ({ sql: text })) } } });

test('the shapes of a profile are its normalized statements, each once, in the order first run', (t) => {
  t.deepEqual(queryShapesOf(profileRunning('SELECT * FROM t WHERE id = $1', 'SELECT 1', 'SELECT  *  FROM t WHERE id = 42')), ['SELECT * FROM t WHERE id = ?', 'SELECT ?']);
  t.deepEqual(queryShapesOf(profileRunning()), []);
});

test('a profile with no Database entry, or a damaged one, has no known shapes: nothing is compared, rather than every shape read as new', (t) => {
  t.is(queryShapesOf({ collectors: {} }), null);
  t.is(queryShapesOf({ collectors: { db: { queries: 'none' } } }), null);
  t.is(queryShapeChanges({ collectors: {} }, profileRunning('SELECT 1')), null);
  t.is(queryShapeChanges(profileRunning('SELECT 1'), { collectors: {} }), null);
});

test('the shapes added are those the later profile ran and the earlier did not; removed, the other way round; a value changed is no new shape', (t) => {
  const before = profileRunning('SELECT a FROM t', 'SELECT b FROM t WHERE id = $1', 'SELECT b FROM t WHERE id = $1');
  const after = profileRunning('SELECT c FROM t', 'SELECT a FROM t', "SELECT d FROM t WHERE x = 'y'");
  t.deepEqual(queryShapeChanges(before, after), { added: ['SELECT c FROM t', 'SELECT d FROM t WHERE x = ?'], removed: ['SELECT b FROM t WHERE id = ?'] });
  t.deepEqual(queryShapeChanges(profileRunning('SELECT 1 FROM t'), profileRunning('SELECT 2 FROM t')), { added: [], removed: [] });
});
