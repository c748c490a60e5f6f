import test from 'ava';
import { SHOWN_CALLS, oneLine } from '../../../../src/profiler/ui/cli/format/format-app-io';
import { formatProfile } from '../../../../src/profiler/ui/cli/format/format-profile';
import { type StoredQuery } from '../../../../src/profiler/app-io/analyze-calls';
import { type DatabaseCollectorData, type HttpClientCollectorData, type RedisCollectorData } from '../../../../src/profiler/collect/collectors/app-io-collectors';
import { sampleProfile } from '../../../helpers/sample-profile';

const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
const totals = { dropped: 0, errors: 0, slow: 0, slowMs: 100 };

function query(sql: string, extra: Partial<StoredQuery> = {}): StoredQuery {
  return { start: 0, duration: 1, error: null, origin: { file: 'src/app.ts', line: 7, function: 'list' }, driver: 'pg', sql, params: [], database: 'shop', rows: 1, ...extra };
}

test('profiler:show lists at most SHOWN_CALLS queries, says how many more, and counts those not kept', (t) => {
  const queries = Array.from({ length: SHOWN_CALLS + 20 }, (_, i) => query(`SELECT ${i}`, { origin: { file: 'src/app.ts', line: i, function: '' } }));
  const db: DatabaseCollectorData = { ...totals, count: queries.length + 3, time: 70, dropped: 3, queries, nPlusOne: 0, duplicates: 0 };
  const text = formatProfile(sampleProfile({ collectors: { db: { ...db } } }));
  t.true(text.includes(`Database\n  ${SHOWN_CALLS + 23} queries in 70.0 ms; 3 past PROFILER_MAX_ENTRIES, counted but not kept\n`));
  t.true(text.includes(`  #${SHOWN_CALLS}  1.00 ms  pg shop  1 row  at src/app.ts:${SHOWN_CALLS - 1}\n`));
  t.false(text.includes(`#${SHOWN_CALLS + 1} `));
  t.true(text.includes('  … 20 more (--json shows them)\n'));
});

test('profiler:show marks N+1, duplicate, slow and failed queries and says the flags in the totals', (t) => {
  const queries = [
    query('SELECT * FROM users'),
    ...[1, 2, 3].map((id) => query('SELECT * FROM orders WHERE user_id = $1', { params: [id], origin: { file: 'src/orders.ts', line: 12, function: 'ordersOf' } })),
    query('SELECT * FROM users'),
    query('SELECT pg_sleep(1)', { duration: 1000 }),
    query('SELEC oops', { error: 'syntax error at or near "SELEC"', rows: null }),
  ];
  const db: DatabaseCollectorData = { ...totals, count: queries.length, time: 1006, errors: 1, slow: 1, queries, nPlusOne: 1, duplicates: 1 };
  const text = formatProfile(sampleProfile({ collectors: { db: { ...db } } }));
  t.true(text.includes('  7 queries in 1.01 s; 1 N+1, 1 duplicate, 1 slow (at least 100 ms), 1 error\n'));
  t.true(text.includes('  N+1 (one query shape run in a loop: one query could fetch them all)\n    3x  3.00 ms  SELECT * FROM orders WHERE user_id = ?\n        from src/orders.ts:12\n'));
  t.true(text.includes('    #2  1.00 ms  pg shop  [N+1]  1 row  at src/orders.ts:12 (ordersOf)\n'));
  t.true(text.includes('    #5  1.00 ms  pg shop  [duplicate]  1 row  at src/app.ts:7 (list)\n'));
  t.true(text.includes('    #6  1.00 s  pg shop  [slow]  1 row'));
  t.true(text.includes('    #7  1.00 ms  pg shop  [error: syntax error at or near "SELEC"]  at src/app.ts:7 (list)\n        SELEC oops\n'));
});

test('profiler:show names the library and the controller of a query sent with no frame of the application\'s, never counts those as N+1, and writes an awaiting frame as async', (t) => {
  const issued = { file: '', line: 0, function: 'listPosts', found: 'request', library: 'drizzle-orm' } as const;
  const queries = [
    ...[1, 2, 3].map((id) => query('SELECT * FROM posts WHERE id = $1', { params: [id], origin: issued })),
    query('BEGIN', { origin: { file: '', line: 0, function: '', found: 'request' } }),
    query('SELECT 1', { origin: { file: 'src/feed.ts', line: 9, function: 'feed', found: 'async' } }),
  ];
  const db: DatabaseCollectorData = { ...totals, count: queries.length, time: 5, queries, nPlusOne: 0, duplicates: 0 };
  const text = formatProfile(sampleProfile({ collectors: { db: { ...db } } }));
  t.true(text.includes('    #1  1.00 ms  pg shop  1 row  issued by drizzle-orm in listPosts\n'), text);
  t.false(text.includes('[N+1]'), 'three queries from somewhere in one controller are not one place');
  t.true(text.includes('    #4  1.00 ms  pg shop  1 row  during the request\n'));
  t.true(text.includes('    #5  1.00 ms  pg shop  1 row  at src/feed.ts:9 (async feed)\n'));
});

test('profiler:show escapes control characters in SQL, URLs, Redis arguments and errors, and keeps each call on one line', (t) => {
  const db: DatabaseCollectorData = { ...totals, count: 1, time: 1, queries: [query("SELECT '\u001b]0;pwned\u0007'\nFROM t\u009b2J")], nPlusOne: 0, duplicates: 0 };
  const http_client: HttpClientCollectorData = {
    ...totals,
    count: 1,
    time: 2,
    errors: 1,
    calls: [{ start: 0, duration: 2, error: 'boom\u001b[2J', origin: null, client: 'fetch', method: 'GET', url: 'http://h/\u001b[2J', status: 0, requestHeaders: {}, responseHeaders: {}, requestSize: null, responseSize: null }],
  };
  const redis: RedisCollectorData = { ...totals, count: 1, time: 0.5, commands: [{ start: 0, duration: null, error: null, origin: null, client: 'ioredis', command: 'set', args: ['k\u001b[2J', 'v\nw'], database: 0 }] };
  const text = formatProfile(sampleProfile({ collectors: { db: { ...db }, http_client: { ...http_client }, redis: { ...redis } } }));
  t.notRegex(text, RAW_CONTROL);
  t.true(text.includes("        SELECT '\\x1b]0;pwned\\x07' FROM t\\x9b2J\n"));
  t.true(text.includes('HTTP calls\n  1 call in 2.00 ms; 1 error\n  GET http://h/\\x1b[2J  error: boom\\x1b[2J  2.00 ms  (fetch)\n'));
  t.true(text.includes('Redis\n  1 command in 0.50 ms\n  SET k\\x1b[2J v w  running  db 0\n'));
});

test('profiler:show says "(none)" for a request without I/O and "(no data)" for a profile stored before Loupe captured it', (t) => {
  const empty = { ...totals, count: 0, time: 0 };
  const text = formatProfile(sampleProfile({ collectors: { db: { ...empty, queries: [], nPlusOne: 0, duplicates: 0 }, http_client: { ...empty, calls: [] }, redis: { ...empty, commands: [] } } }));
  t.true(text.includes('Database\n  (none)\n\nHTTP calls\n  (none)\n\nRedis\n  (none)\n'));
  t.true(formatProfile(sampleProfile()).includes('Database\n  (no data: no "db" collector entry)\n'));
});

test('oneLine folds whitespace and cuts long text without splitting a character', (t) => {
  t.is(oneLine('SELECT *\n  FROM t\tWHERE x'), 'SELECT * FROM t WHERE x');
  t.is(oneLine('abcdef', 3), 'abc…');
  t.is(oneLine('ab😀d', 3), 'ab…');
});
