import { readFileSync } from 'node:fs';
import test from 'ava';
import Redis from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { LoupeResponse, type RouteDefinition } from '../../../../src';
import { httpRequest } from '../../../helpers/http-client';
import { parseServerTiming } from '../../../helpers/server-timing';
import { profiledRequest, startIoApp, startUpstream, type IoApp } from '../../app-io/io-app';

const table = `loupe_panels_${process.pid}_${Date.now()}`;
const redisKey = `loupe-test:panels:${process.pid}`;
const IDE = 'vscode://file/%f:%l';
/** Far below pg_sleep(0.5) and far above anything else the route does, even on a busy machine. */
const SLOW_MS = '400';

let upstream: Awaited<ReturnType<typeof startUpstream>>;
const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
const pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres' });
const my = mysql.createPool({ host: '127.0.0.1', user: 'root', database: 'test' });

/** The line of this file holding `marker`, as the profile's origins and stack frames name it. */
function lineOf(marker: string): number {
  const index = readFileSync(__filename, 'utf8').split('\n').findIndex((line) => line.includes(marker) && !line.includes('lineOf('));
  if (index < 0) throw new Error(`No line holds ${marker}.`);
  return index + 1;
}

const routes: RouteDefinition[] = [
  {
    name: 'io', path: '/io', methods: ['GET'],
    controller: {
      name: 'io',
      handle: async () => {
        for (const id of [1, 2, 3]) await pool.query(`SELECT name FROM ${table} WHERE id = $1`, [id]); // n-plus-one-line
        await pool.query(`SELECT name FROM ${table} WHERE id = $1`, [1]);
        await pool.query('SELECT pg_sleep(0.5)');
        await my.query('SELECT ? AS answer', [42]);
        await fetch(`${upstream.url}/json?page=2`, { headers: { 'X-Quote': `it's "here"` } });
        await redis.set(redisKey, 'v', 'EX', 60);
        await redis.get(redisKey);
        return LoupeResponse.json({ ok: true });
      },
    },
  },
  {
    name: 'rest', path: '/rest', methods: ['GET'],
    controller: {
      name: 'rest',
      handle: async () => {
        // A REST loop: one endpoint, an item each time, the id in the path.
        for (const id of [1, 2, 3]) await (await fetch(`${upstream.url}/item/${id}`)).text(); // rest-loop-line
        await (await fetch(`${upstream.url}/item/4`)).text();
        return LoupeResponse.json({ ok: true });
      },
    },
  },
  {
    name: 'boom', path: '/boom', methods: ['GET'],
    controller: {
      name: 'boom',
      handle: () => {
        throw new Error('The panels test failed on purpose.'); // source-excerpt-marker <i>kept as text</i>
      },
    },
  },
];

let withIde: IoApp;

test.before(async (t) => {
  upstream = await startUpstream();
  try {
    await pool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
  } catch (error) {
    t.fail(`PostgreSQL at 127.0.0.1:5432 (database test, user postgres) is needed: ${String(error)}`);
    throw error;
  }
  await pool.query(`INSERT INTO ${table} VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
  withIde = await startIoApp(routes, { PROFILER_IDE: IDE, PROFILER_SLOW_CALL_MS: SLOW_MS });
});

test.after.always(async () => {
  await withIde?.close();
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await redis.del(redisKey);
  redis.disconnect();
  await pool.end();
  await my.end();
  await upstream.close();
});

async function page(io: IoApp, token: string, query: string): Promise<string> {
  const res = await httpRequest(io.port, { path: `/_profiler/${token}?${query}` });
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.body.slice(0, 300)}`);
  return res.body;
}

/** The rows of the panel's table that hold `text`. */
function rowsWith(body: string, text: string): number {
  const rows = body.match(/<tr class="(?:query|http-call|redis-command|group[^"]*)"[\s\S]*?<\/tr>/g) ?? [];
  return rows.filter((row) => row.includes(text)).length;
}

test('the Database panel lists the SQL, flags the N+1 loop, the duplicate and the slow query, and filters on the server', async (t) => {
  const { profile } = await profiledRequest(withIde, { path: '/io' });
  const all = await page(withIde, profile.token, 'panel=db');
  t.true(all.includes('aria-current="page" data-panel="db"'));
  t.regex(all, /<strong class="count">6 queries<\/strong>/);
  t.regex(all, /<span class="slow status-error-text">\d+ slow<\/span> \(400 ms or more\)/);
  t.is(rowsWith(all, `SELECT name FROM ${table} WHERE id = $1`), 4);
  // mysql2's query() puts the values into the text itself.
  t.true(all.includes('SELECT 42 AS answer'), 'the mysql2 query');
  t.true(all.includes('class="flag flag-n-1"'), 'the loop is flagged N+1');
  t.true(all.includes('class="flag flag-duplicate"'));
  t.true(all.includes('class="flag flag-slow"'));
  t.true(all.includes('data-panel="db"><span>Database</span><span class="badge warning">6</span>'), 'the menu badge warns in amber: an N+1 loop and a slow query, no failed one');

  const slow = await page(withIde, profile.token, 'panel=db&filter=slow');
  t.true(slow.includes('pg_sleep(0.5)'));
  t.is(rowsWith(slow, 'WHERE id'), 0, 'the fast queries are filtered out');
  t.true(slow.includes('data-filter="slow" aria-current="true"'));

  const loops = await page(withIde, profile.token, 'panel=db&filter=n_plus_one');
  t.is(rowsWith(loops, 'WHERE id'), 4);
  t.is(rowsWith(loops, 'pg_sleep'), 0);

  const duplicates = await page(withIde, profile.token, 'panel=db&filter=duplicates');
  t.is(rowsWith(duplicates, 'WHERE id'), 1, 'only the repeat of id 1');
  t.is(rowsWith(duplicates, 'AS answer'), 0);

  const grouped = await page(withIde, profile.token, 'panel=db&filter=grouped');
  const groups = grouped.match(/<tr class="group n-plus-one">[\s\S]*?<\/tr>/g) ?? [];
  t.is(groups.length, 1, 'one shape is N+1');
  t.regex(groups[0] ?? '', /<td>4<\/td>/, 'its four queries');
  t.true(
    (groups[0] ?? '').includes(`<div class="batch-hint"><span class="help">Batched, one query with an array of the 4 values of id (3 round trips fewer):</span><pre class="sql">SELECT name FROM ${table} WHERE id = ANY($1)</pre></div>`),
    groups[0],
  );
  t.false(grouped.includes('pg_sleep(0.5) = ANY'), 'a statement without the form has no hint');
});

test('origins link to the editor by PROFILER_IDE; the HTTP Client panel shows the call with its headers and a curl command', async (t) => {
  const { profile } = await profiledRequest(withIde, { path: '/io' });
  const db = await page(withIde, profile.token, 'panel=db');
  t.true(db.includes(`<a class="origin editor-link" href="vscode://file/${__filename}:${lineOf('n-plus-one-line')}">`), 'the loop line, linked');

  const http = await page(withIde, profile.token, 'panel=http_client');
  t.true(http.includes(`${upstream.url}/json?page=2`));
  t.regex(http, /→ <span class="status">200<\/span>/);
  t.regex(http, /<span class="help">fetch( · received \d+ B)?<\/span>/, 'a size is shown when known, else nothing: never "?"');
  t.true(http.includes('<summary>Response headers</summary>'));
  const textarea = /<textarea class="curl-command mono"[^>]*>([^<]*)<\/textarea>/.exec(http)?.[1] ?? '';
  t.true(textarea.startsWith('curl '), textarea);
  t.true(textarea.endsWith(` '${upstream.url}/json?page=2'`), textarea);
  // The quote closes the single-quoted word, is escaped and reopens it; the page escapes the double quotes.
  t.true(textarea.toLowerCase().includes(`-h 'x-quote: it'\\''s &quot;here&quot;'`), textarea);
  t.true(http.includes('class="origin editor-link" href="vscode://file/'));

  const redisPage = await page(withIde, profile.token, 'panel=redis');
  t.regex(redisPage, /<code class="command">SET<\/code> <code class="args">loupe-test:panels:\d+<\/code> <span class="hidden-args empty" title="[^"]+">\+3 hidden arguments<\/span>/);
  t.false(redisPage.includes(' ? '), 'no row of question marks');
  t.regex(redisPage, /<code class="command">GET<\/code>/);
});

test('a loop of HTTP calls to one endpoint with the id in its path is flagged N+1, the same endpoint called from another line is not', async (t) => {
  const { profile } = await profiledRequest(withIde, { path: '/rest' });
  const loops = await page(withIde, profile.token, 'panel=http_client&filter=n_plus_one');
  for (const id of [1, 2, 3]) t.is(rowsWith(loops, `${upstream.url}/item/${id}`), 1, `/item/${id} is in the loop`);
  t.is(rowsWith(loops, `${upstream.url}/item/4`), 0, 'the call from another line is not');
  t.true(loops.includes(`:${lineOf('rest-loop-line')}`), 'the loop\'s line is named');
});

test('the toolbar counts the queries with their time, the calls and the commands, and warns of the N+1 loop', async (t) => {
  const { profile } = await profiledRequest(withIde, { path: '/io' });
  const res = await httpRequest(withIde.port, { path: `/_wdt/${profile.token}` });
  t.is(res.status, 200);
  const db = /<div class="lwdt-item lwdt-block lwdt-io lwdt-io-db lwdt-io-warn">[\s\S]*?<\/div><\/div>/.exec(res.body)?.[0] ?? '';
  t.true(db.includes(`href="/_profiler/${profile.token}?panel=db"`), res.body);
  t.regex(db, /<span class="lwdt-value">6<\/span><span class="lwdt-label">queries<\/span><span class="lwdt-unit">in [\d.]+ m?s<\/span>/, 'milliseconds, or seconds past 1,000 ms');
  t.regex(db, /<span class="lwdt-io-badge">1 N\+1, \d+ slow<\/span>/);
  t.regex(res.body, /lwdt-io-http_client[^"]*"><a href="\/_profiler\/\w+\?panel=http_client"[^>]*><span class="lwdt-value">1<\/span><span class="lwdt-label">call<\/span>/, 'one call, not "1 calls"');
  t.regex(res.body, /lwdt-io-redis[^"]*"><a href="\/_profiler\/\w+\?panel=redis"[^>]*><span class="lwdt-value">2<\/span><span class="lwdt-label">commands/);
});

test('Server-Timing has db, http and cache when the request did such I/O, and not otherwise', async (t) => {
  const { headers } = await profiledRequest(withIde, { path: '/io' });
  const metrics = parseServerTiming(String(headers['server-timing']));
  const dur = (name: string): number => metrics.find((metric) => metric.name === name)?.dur ?? 0;
  t.true(dur('db') >= 500, JSON.stringify(metrics));
  t.true(dur('http') > 0, JSON.stringify(metrics));
  t.true(dur('cache') > 0, JSON.stringify(metrics));
  t.true(dur('db') + dur('http') + dur('cache') <= dur('controller') + 1, 'the I/O happened inside the controller');
  t.is(metrics.at(-1)?.name, 'total');

  const quiet = await profiledRequest(withIde, { path: '/boom' });
  const names = parseServerTiming(String(quiet.headers['server-timing'])).map((metric) => metric.name);
  t.false(names.includes('db') || names.includes('http') || names.includes('cache'), names.join());
});

test('the exception panel links each frame to the editor and shows the source around the application\'s frames, escaped', async (t) => {
  const { profile, status } = await profiledRequest(withIde, { path: '/boom' });
  t.is(status, 500);
  const body = await page(withIde, profile.token, 'panel=exception');
  const line = lineOf('source-excerpt-marker');
  t.true(body.includes(`<a class="loc editor-link" href="vscode://file/${__filename}:${line}">${__filename}:${line}:`), 'the frame, linked');
  const current = `<span class="line current"><span class="no">${line}</span>`;
  t.true(body.includes(`${current}        throw new Error('The panels test failed on purpose.'); // source-excerpt-marker &lt;i&gt;kept as text&lt;/i&gt;</span>`), 'the line itself, escaped');
  t.true(body.includes(`<span class="no">${line - 3}</span>`) && body.includes(`<span class="no">${line + 3}</span>`), 'three lines either side');
  t.false(body.includes('<i>kept as text</i>'));
});

test('without PROFILER_IDE positions are plain text, and the source is still shown', async (t) => {
  const plain = await startIoApp(routes, { PROFILER_SLOW_CALL_MS: SLOW_MS });
  try {
    const io = await profiledRequest(plain, { path: '/io' });
    const db = await page(plain, io.profile.token, 'panel=db');
    t.true(db.includes(`<span class="origin">${__filename}:${lineOf('n-plus-one-line')}</span>`));
    t.false(db.includes('editor-link'));
    t.false(db.includes('vscode://'));
    const boom = await profiledRequest(plain, { path: '/boom' });
    const exception = await page(plain, boom.profile.token, 'panel=exception');
    t.false(exception.includes('editor-link'));
    t.true(exception.includes(`<span class="loc">${__filename}:${lineOf('source-excerpt-marker')}:`));
    t.true(exception.includes('source-excerpt-marker &lt;i&gt;'));
  } finally {
    await plain.close();
  }
});

test('the Performance waterfall shows the queries, calls and commands as spans, each kind in its own colour', async (t) => {
  const { profile } = await profiledRequest(withIde, { path: '/io' });
  const body = await page(withIde, profile.token, 'panel=performance');
  t.regex(body, new RegExp(`<div class="row cat-db" data-category="db"[^>]*><span class="label"[^>]*title="sql SELECT ${table} — pg · [^"]*app-io-panels-http\\.test\\.ts:${lineOf('n-plus-one-line')}"`));
  t.regex(body, /<div class="row cat-http" data-category="http"[^>]*><span class="label"[^>]*title="GET http:\/\/127\.0\.0\.1:\d+\/json\?page=2 — fetch · /);
  t.regex(body, /<div class="row cat-cache" data-category="cache"[^>]*><span class="label"[^>]*title="redis SET — ioredis · /);
  const colours = ['db', 'http', 'cache'].map((category) => new RegExp(`\\.cat-${category} \\{ --span: (#[0-9a-f]{6}); \\}`).exec(body)?.[1]);
  t.is(new Set([...colours, /\.cat-redis \{ --span: (#[0-9a-f]{6}); \}/.exec(body)?.[1], /\.cat-app \{ --span: (#[0-9a-f]{6}); \}/.exec(body)?.[1]]).size, 5, 'five colours, none shared');
  t.false(colours.includes(undefined));
  for (const [category, meaning] of [['db', 'SQL'], ['http', 'HTTP client'], ['cache', "application's Redis"]]) t.true(body.includes(`<span class="swatch cat-${category}"></span>${meaning}`), `the legend says what ${category} is`);
  t.false(body.includes('<span class="swatch cat-redis">'), 'no Loupe Redis in the legend of a request that made no session call');
});
