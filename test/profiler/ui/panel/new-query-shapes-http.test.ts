import test from 'ava';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { LoupeResponse } from '../../../../src';
import { httpRequest } from '../../../helpers/http-client';
import { redisConfigOf } from '../../../helpers/test-server';
import { runLoupe } from '../../../cli/run-loupe';
import { profiledRequest, startIoApp, type IoApp } from '../../app-io/io-app';

/*
 * "New since last time": one route run twice on the real PostgreSQL, its query shapes A and B the
 * first time, A and C the second (`?then=1`). The second profile's Database panel marks C new, the
 * compare page and `profiler:diff` list C added and B removed.
 */

const table = `loupe_shapes_${randomBytes(4).toString('hex')}`;
const A = `SELECT count(*) AS n FROM ${table}`;
const B = `SELECT name FROM ${table} WHERE id = ?`;
const C = `SELECT id FROM ${table} ORDER BY id DESC LIMIT ?`;

let pool: pg.Pool;

/** One route, `shapes`: A then B; A then C with `?then=1`. */
function shapesRoutes(): Parameters<typeof startIoApp>[0] {
  return [
    {
      name: 'shapes',
      path: '/shapes',
      methods: ['GET'],
      controller: {
        name: 'shapes',
        handle: async ({ request }) => {
          const count = await pool.query(`SELECT count(*) AS n FROM ${table}`);
          const then = request.queryParams.get('then') === '1' ? await pool.query(`SELECT id FROM ${table} ORDER BY id DESC LIMIT 1`) : await pool.query(`SELECT name FROM ${table} WHERE id = $1`, [1]);
          return LoupeResponse.json([count.rows, then.rows]);
        },
      },
    },
  ];
}
let io: IoApp;
let first = '';
let second = '';

test.before(async () => {
  pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres', max: 2 });
  try {
    await pool.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, name text NOT NULL)`);
  } catch (error) {
    await pool.end();
    throw new Error('These tests need PostgreSQL on 127.0.0.1:5432 (user postgres, trust, database "test").', { cause: error });
  }
  await pool.query(`INSERT INTO ${table} VALUES (1, 'one'), (2, 'two')`);
  io = await startIoApp(shapesRoutes());
  first = (await profiledRequest(io, { path: '/shapes' })).profile.token;
  second = (await profiledRequest(io, { path: '/shapes?then=1' })).profile.token;
});

test.after.always(async () => {
  await io?.close();
  await pool?.query(`DROP TABLE IF EXISTS ${table}`);
  await pool?.end();
});

const escaped = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The rows of the panel's table whose class is `kind`, each as its HTML, by the SQL it shows. */
function rowsBySql(body: string, kind: 'query' | 'group'): Map<string, string> {
  const rows = new Map<string, string>();
  for (const row of body.split(`<tr class="${kind}`).slice(1)) {
    const sql = /<pre class="sql">([^<]*)<\/pre>/.exec(row)?.[1];
    if (sql !== undefined) rows.set(sql, row.slice(0, row.indexOf('</tr>')));
  }
  return rows;
}

test('the Database panel of the second request marks the shape the first did not run new, and says so with a link to the first', async (t) => {
  const res = await httpRequest(io.port, { path: `/_profiler/${second}?panel=db` });
  t.is(res.status, 200);
  t.true(
    res.body.includes(`<p class="new-shapes" data-count="1">1 query shape new since <a class="mono" href="/_profiler/${first}?panel=db">${first}</a>, the previous request of this route (<a href="/_profiler/${first}/compare/${second}">compare</a>).</p>`),
    res.body,
  );
  const rows = rowsBySql(res.body, 'query');
  t.is(rows.size, 2);
  t.true(rows.get(escaped(`SELECT id FROM ${table} ORDER BY id DESC LIMIT 1`))?.includes('<span class="flag flag-new">new</span>'), 'C is new');
  t.false(rows.get(escaped(A))?.includes('class="flag flag-new"') ?? true, 'A ran the first time too');
  const onlyNew = await httpRequest(io.port, { path: `/_profiler/${second}?panel=db&filter=new` });
  t.true(onlyNew.body.includes(`data-filter="new" aria-current="true">New <span class="badge">1</span></a>`), onlyNew.body);
  t.deepEqual([...rowsBySql(onlyNew.body, 'query').keys()], [escaped(`SELECT id FROM ${table} ORDER BY id DESC LIMIT 1`)]);
  const groups = rowsBySql((await httpRequest(io.port, { path: `/_profiler/${second}?panel=db&filter=grouped` })).body, 'group');
  t.is(groups.size, 2);
  t.true(groups.get(escaped(C))?.includes('<span class="flag flag-new">new</span>'), 'the shape C is new');
  t.false(groups.get(escaped(A))?.includes('class="flag flag-new"') ?? true, 'the shape A is not');
});

test('the Database panel of the first request of a route marks nothing new: there is no previous profile to compare with', async (t) => {
  for (const path of [`/_profiler/${first}?panel=db`, `/_profiler/${first}?panel=db&filter=grouped`]) {
    const res = await httpRequest(io.port, { path });
    t.is(res.status, 200);
    t.true(res.body.includes(escaped(A)), path);
    t.false(res.body.includes('class="new-shapes"'), path);
    t.false(res.body.includes('data-filter="new"'), path);
    t.false(res.body.includes('<span class="flag flag-new">'), path);
  }
});

test('the compare page lists the query shape B added and the one it removed, with their counts; as JSON too', async (t) => {
  const res = await httpRequest(io.port, { path: `/_profiler/${first}/compare/${second}` });
  t.is(res.status, 200);
  t.true(res.body.includes(`<h4>1 query shape added</h4>\n<ul class="shapes-added" data-count="1">\n<li><pre class="sql">${escaped(C)}</pre></li>\n</ul>`), res.body);
  t.true(res.body.includes(`<h4>1 query shape removed</h4>\n<ul class="shapes-removed" data-count="1">\n<li><pre class="sql">${escaped(B)}</pre></li>\n</ul>`), res.body);
  const json = await httpRequest(io.port, { path: `/_profiler/${first}/compare/${second}`, headers: { Accept: 'application/json' } });
  t.deepEqual((JSON.parse(json.body) as { queryShapes: unknown }).queryShapes, { added: [C], removed: [B] });
  const swapped = await httpRequest(io.port, { path: `/_profiler/${second}/compare/${first}`, headers: { Accept: 'application/json' } });
  t.deepEqual((JSON.parse(swapped.body) as { queryShapes: unknown }).queryShapes, { added: [B], removed: [C] });
});

test('profiler:diff A B (through the process) lists the query shapes added and removed, with their counts', async (t) => {
  const run = await runLoupe(['profiler:diff', first, second], { REDIS_PREFIX: redisConfigOf(io.app.config).prefix });
  t.is(run.code, 0, run.stderr);
  t.true(run.stdout.includes(`\nQuery shapes added (1)\n  ${C}\n\nQuery shapes removed (1)\n  ${B}\n`), run.stdout);
  const alone = await runLoupe(['profiler:diff', second], { REDIS_PREFIX: redisConfigOf(io.app.config).prefix });
  t.is(alone.code, 0, alone.stderr);
  t.true(alone.stdout.includes(`\nQuery shapes added (1)\n  ${C}\n`), alone.stdout);
});

test('when the previous profile kept only some of its queries (PROFILER_MAX_ENTRIES), the line says a shape past them reads as new', async (t) => {
  const bounded = await startIoApp(shapesRoutes(), { PROFILER_MAX_ENTRIES: '1' });
  try {
    const before = (await profiledRequest(bounded, { path: '/shapes' })).profile.token;
    const after = (await profiledRequest(bounded, { path: '/shapes?then=1' })).profile.token;
    const res = await httpRequest(bounded.port, { path: `/_profiler/${after}?panel=db` });
    t.regex(res.body, new RegExp(`<p class="new-shapes" data-count="0">No query shape new since <a class="mono" href="/_profiler/${before}\\?panel=db">${before}</a>.*<span class="help unkept">It kept 1 of its 2 queries \\(PROFILER_MAX_ENTRIES\\): a shape it ran past them reads as new here\\.</span></p>`));
    const unbounded = await httpRequest(io.port, { path: `/_profiler/${second}?panel=db` });
    t.false(unbounded.body.includes('class="help unkept"'));
  } finally {
    await bounded.close();
  }
});
