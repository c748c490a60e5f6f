import test from 'ava';
import { analyzeQueries, type StoredOrigin, type StoredQuery } from '../../../src/profiler/app-io/analyze-calls';
import { analyzeRepeats } from '../../../src/profiler/app-io/analyze-repeats';

const at = (line: number): StoredOrigin => ({ file: '/app/src/repository.ts', line, function: 'find' });
/** A call sent with no frame of the application's: only its request's controller and the library are known. */
const issued: StoredOrigin = { file: '', line: 0, function: 'listUsers', found: 'request', library: 'drizzle-orm' };

function query(id: number, origin: StoredOrigin | null): StoredQuery {
  return { start: id, duration: 1, error: null, origin, driver: 'pg', sql: `SELECT name FROM users WHERE id = ${id}`, params: [], database: 'test', rows: 1 };
}

test('one query shape run three times from one line is an N+1, found on the stack or among its async frames; the same shape with no known place, or only its request\'s, is not', (t) => {
  const loop = analyzeQueries([1, 2, 3].map((id) => query(id, at(11))), 100);
  t.true(loop.groups[0]?.nPlusOne);
  // Three calls whose place is unknown (an ORM's own, a thenable's) may come from three lines: no loop is claimed.
  const unknown = analyzeQueries([1, 2, 3].map((id) => query(id, null)), 100);
  t.is(unknown.groups[0]?.count, 3);
  t.false(unknown.groups[0]?.nPlusOne);
  const byRequest = analyzeQueries([1, 2, 3].map((id) => query(id, issued)), 100);
  t.false(byRequest.groups[0]?.nPlusOne, 'one controller is not one place');
  t.deepEqual(byRequest.groups[0]?.origins, []);
  const awaited = analyzeQueries([1, 2, 3].map((id) => query(id, { ...at(11), found: 'async' })), 100);
  t.true(awaited.groups[0]?.nPlusOne, 'a line found among the async frames is a place');
  const spread = analyzeQueries([query(1, at(11)), query(2, at(12)), query(3, at(13))], 100);
  t.false(spread.groups[0]?.nPlusOne, 'three lines, once each');
});

test('calls that are not SQL: the loop needs a known place too', (t) => {
  const shape = (): string => 'GET http://api.test/item/{id}';
  const exact = (call: StoredQuery): string => String(call.start);
  t.deepEqual([...analyzeRepeats([1, 2, 3].map((id) => query(id, at(20))), shape, exact).nPlusOne], [0, 1, 2]);
  t.is(analyzeRepeats([1, 2, 3].map((id) => query(id, null)), shape, exact).nPlusOne.size, 0);
  t.is(analyzeRepeats([1, 2, 3].map((id) => query(id, issued)), shape, exact).nPlusOne.size, 0, 'the request\'s position is no place either');
});

test('the loop of an N+1 is the function each awaited call resumes in, else the first frame above the query that every call shares', (t) => {
  const frame = (line: number, found?: 'async'): StoredOrigin => (found === undefined ? { file: '/app/src/authors.ts', line, function: 'loop' } : { file: '/app/src/authors.ts', line, function: 'loop', found });
  const withStack = (id: number, stack: readonly StoredOrigin[]): StoredQuery => ({ ...query(id, at(11)), stack: [at(11), ...stack] });
  // for (…) await repository.find(id): the first call is all synchronous, the next ones resume in the loop's function.
  const awaited = analyzeQueries([withStack(1, [frame(20), frame(40)]), withStack(2, [frame(20), frame(40, 'async')]), withStack(3, [frame(20), frame(40, 'async')])], 100);
  t.like(awaited.groups[0]?.loop, { line: 20 });
  // ids.map((id) => repository.find(id)): no await between the calls, the first shared caller.
  const mapped = analyzeQueries([withStack(1, [frame(30), frame(20)]), withStack(2, [frame(30), frame(20)]), withStack(3, [frame(30), frame(20)])], 100);
  t.like(mapped.groups[0]?.loop, { line: 30 });
  const unknown = analyzeQueries([1, 2, 3].map((id) => query(id, at(11))), 100);
  t.is(unknown.groups[0]?.loop, null, 'no stack (an old profile, one cut to its budget): no loop is guessed');
});
