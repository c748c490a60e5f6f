import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import Redis from 'ioredis';
import pg from 'pg';
import { LoupeResponse, type RouteDefinition } from '../../../src';
import { type DatabaseCollectorData, type HttpClientCollectorData, type RedisCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';
import { collectorData, type Profile } from '../../../src/profiler/profile';
import { runMain } from '../../cli/run-loupe';
import { redisConfigOf } from '../../helpers/test-server';
import { httpRequest } from '../../helpers/http-client';
import { authorsWithCounts } from './blog-repository';
import { profiledRequest, startIoApp, startUpstream, type IoApp } from './io-app';

// Each captured call keeps the application's frames of its own stack; an N+1 names its loop's
// line; failed calls colour the panels and the toolbar. Real PostgreSQL, Redis and HTTP.

const table = `loupe_stacks_${process.pid}_${Date.now()}`;
const redisKey = `loupe-test:stacks:${process.pid}`;
const REPOSITORY = join(__dirname, 'blog-repository.ts');
/** Authors in the table: the loop runs one query for each. */
const AUTHORS = [1, 2, 3, 4];
/** Authors of `/many`: enough calls for their stacks to weigh in the profile. */
const MANY = Array.from({ length: 150 }, (_, index) => index + 1);

let upstream: Awaited<ReturnType<typeof startUpstream>>;
const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
const pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres', max: 2 });

/** The line of `file` holding `marker`. */
function lineOf(file: string, marker: string): number {
  const index = readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(marker) && !line.includes('lineOf('));
  if (index < 0) throw new Error(`No line of ${file} holds ${marker}.`);
  return index + 1;
}

const routes: RouteDefinition[] = [
  {
    name: 'authors', path: '/authors', methods: ['GET'],
    controller: { name: 'authors', handle: async () => LoupeResponse.json(await authorsWithCounts(pool, table, AUTHORS)) }, // authors-controller
  },
  {
    name: 'many', path: '/many', methods: ['GET'],
    controller: { name: 'many', handle: async () => LoupeResponse.json(await authorsWithCounts(pool, table, MANY)) },
  },
  ...[200, 404, 502].map((status): RouteDefinition => ({
    name: `upstream-${status}`, path: `/upstream/${status}`, methods: ['GET'],
    controller: {
      name: 'upstream',
      handle: async () => {
        await (await fetch(`${upstream.url}/status/${status}`)).text();
        return LoupeResponse.json({ ok: true });
      },
    },
  })),
  {
    name: 'redis-error', path: '/redis-error', methods: ['GET'],
    controller: {
      name: 'redisError',
      handle: async () => {
        await redis.set(redisKey, 'not a number', 'EX', 60);
        const failed = await redis.incr(redisKey).then(() => false, () => true);
        return LoupeResponse.json({ failed });
      },
    },
  },
];

let io: IoApp;

test.before(async (t) => {
  upstream = await startUpstream();
  try {
    await pool.query(`CREATE TABLE ${table} (id serial PRIMARY KEY, author_id int NOT NULL)`);
  } catch (error) {
    t.fail(`PostgreSQL at 127.0.0.1:5432 (database test, user postgres) is needed: ${String(error)}`);
    throw error;
  }
  await pool.query(`INSERT INTO ${table} (author_id) SELECT 1 + n % 4 FROM generate_series(1, 10) AS n`);
  // No call is slow, however loaded the machine: the colours tested are the failures'.
  io = await startIoApp(routes, { PROFILER_SLOW_CALL_MS: '60000' });
});

test.after.always(async () => {
  await io?.close();
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  await redis.del(redisKey);
  redis.disconnect();
  await pool.end();
  await upstream.close();
});

async function page(app: IoApp, token: string, query: string): Promise<string> {
  const res = await httpRequest(app.port, { path: `/_profiler/${token}?${query}` });
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.body.slice(0, 300)}`);
  return res.body;
}

async function toolbar(app: IoApp, token: string): Promise<string> {
  const res = await httpRequest(app.port, { path: `/_wdt/${token}` });
  if (res.status !== 200) throw new Error(`toolbar: ${res.status}`);
  return res.body;
}

function database(profile: Profile): DatabaseCollectorData {
  const data = collectorData<DatabaseCollectorData>(profile, 'db');
  if (data === undefined) throw new Error('The profile has no Database entry.');
  return data;
}

const queryLine = lineOf(REPOSITORY, 'post-count-query');
const loopLine = lineOf(REPOSITORY, 'authors-loop');
const controllerLine = lineOf(__filename, 'authors-controller');

test('each query keeps its stack: the repository\'s line, the loop\'s, then the controller\'s, in order and at most 8', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/authors' });
  const { queries } = database(profile);
  t.is(queries.length, AUTHORS.length);
  for (const query of queries) {
    t.like(query.origin, { file: REPOSITORY, line: queryLine, function: 'postCount' });
    const stack = query.stack ?? [];
    t.true(stack.length >= 3 && stack.length <= 8, JSON.stringify(stack));
    t.deepEqual(stack.slice(0, 3).map((frame) => [frame.file, frame.line]), [
      [REPOSITORY, queryLine],
      [REPOSITORY, loopLine],
      [__filename, controllerLine],
    ]);
    t.false(stack.some((frame) => frame.file.includes('node_modules') || frame.file.includes(`${join(__dirname, '..', '..', '..', 'src')}/`)), 'no library\'s frame, no Loupe\'s');
  }
});

test('the N+1 group names the query\'s line and the loop\'s line, in the Database panel and in profiler:show', async (t) => {
  const { profile } = await profiledRequest(io, { path: '/authors' });
  const grouped = await page(io, profile.token, 'panel=db&filter=grouped');
  const group = /<tr class="group n-plus-one">[\s\S]*?<\/tr>/.exec(grouped)?.[0] ?? '';
  t.true(group.includes(`<span class="origin">${REPOSITORY}:${queryLine}</span>`), group);
  t.true(group.includes(`<p class="loop-origin"><span class="help">in the loop at</span> <span class="origin">${REPOSITORY}:${loopLine}</span>`), group);

  const list = await page(io, profile.token, 'panel=db');
  const row = /<tr class="query"[\s\S]*?<\/tr>/.exec(list)?.[0] ?? '';
  t.regex(row, /<details class="call-stack"><summary>Called from \d+ more frames<\/summary><ol class="stack-frames">/, 'the stack, folded');
  t.true(row.includes(`<li><span class="origin">${REPOSITORY}:${loopLine}</span>`), row);
  t.true(row.includes(`<span class="origin">${__filename}:${controllerLine}</span>`), row);
  t.false(list.includes('<script'), 'no script: the strict CSP holds');

  const show = await runMain(['profiler:show', profile.token], { REDIS_PREFIX: redisConfigOf(io.app.config).prefix });
  t.is(show.code, 0, show.stderr);
  const lines = show.stdout.split('\n').map((line) => line.trim());
  const from = lines.indexOf(`from ${REPOSITORY}:${queryLine}`);
  t.true(from > 0, show.stdout);
  t.is(lines[from + 1], `in the loop at ${REPOSITORY}:${loopLine} (authorsWithCounts)`);
  t.true(lines.includes(`called from ${REPOSITORY}:${loopLine} (authorsWithCounts)`), show.stdout);
});

test('a call answered 502 counts as an error in the HTTP Client panel and turns the toolbar item red; a 404 is a warning, amber', async (t) => {
  const bad = await profiledRequest(io, { path: '/upstream/502' });
  const badData = collectorData<HttpClientCollectorData>(bad.profile, 'http_client');
  t.like(badData, { count: 1, errors: 1, warnings: 0 });
  const badPanel = await page(io, bad.profile.token, 'panel=http_client');
  t.true(badPanel.includes('<span class="errors status-error-text">1 error</span>'), badPanel);
  t.true(badPanel.includes('class="flag flag-error"'));
  t.true(badPanel.includes('data-panel="http_client"><span>HTTP Client</span><span class="badge error">1</span>'), 'the menu badge is red');
  t.regex(await toolbar(io, bad.profile.token), /<div class="lwdt-item lwdt-block lwdt-io lwdt-io-http_client lwdt-io-error">[\s\S]*?<span class="lwdt-io-badge">1 failed<\/span>/);

  const missing = await profiledRequest(io, { path: '/upstream/404' });
  t.like(collectorData<HttpClientCollectorData>(missing.profile, 'http_client'), { count: 1, errors: 0, warnings: 1 });
  const missingPanel = await page(io, missing.profile.token, 'panel=http_client');
  t.true(missingPanel.includes('<span class="errors">0 errors</span>'), missingPanel);
  t.true(missingPanel.includes('<span class="warnings status-warning-text">1 answered 4xx</span>'), missingPanel);
  t.regex(await toolbar(io, missing.profile.token), /<div class="lwdt-item lwdt-block lwdt-io lwdt-io-http_client lwdt-io-warn">[\s\S]*?<span class="lwdt-io-badge">1 4xx<\/span>/);

  const fine = await profiledRequest(io, { path: '/upstream/200' });
  t.regex(await toolbar(io, fine.profile.token), /<div class="lwdt-item lwdt-block lwdt-io lwdt-io-http_client">/, 'a 200 leaves it grey');
});

test('a Redis error reply counts as an error in the Redis panel and turns the toolbar item red', async (t) => {
  const { profile, body } = await profiledRequest(io, { path: '/redis-error' });
  t.is(body, '{"failed":true}');
  t.like(collectorData<RedisCollectorData>(profile, 'redis'), { count: 2, errors: 1 });
  const panel = await page(io, profile.token, 'panel=redis');
  t.true(panel.includes('<span class="errors status-error-text">1 error</span>'), panel);
  t.regex(panel, /<p class="call-error status-error-text">[^<]*not an integer/);
  t.regex(await toolbar(io, profile.token), /<div class="lwdt-item lwdt-block lwdt-io lwdt-io-redis lwdt-io-error">/);
});

test('a profile of many calls over its byte budget loses its calls\' stacks first and keeps every origin whole', async (t) => {
  // The default budget (64 KiB) already cuts these stacks: measure them where they fit.
  const roomy = await startIoApp(routes, { PROFILER_MAX_PROFILE_BYTES: String(4 * 1024 * 1024) });
  const whole = await profiledRequest(roomy, { path: '/many' }).finally(() => roomy.close());
  t.is(whole.profile.cut, undefined);
  const withStacks = Buffer.byteLength(JSON.stringify(whole.profile));
  const queries = database(whole.profile).queries;
  t.is(queries.length, MANY.length);
  t.deepEqual(queries.filter((query) => (query.stack?.length ?? 0) < 3 || (query.stack?.length ?? 0) > 8).map((query) => query.stack), []);
  const withoutStacks = Buffer.byteLength(JSON.stringify({ ...whole.profile, collectors: { ...whole.profile.collectors, db: { ...database(whole.profile), queries: queries.map(({ stack: _stack, ...rest }) => rest) } } }));
  // Between the two: the stacks must go, nothing else need.
  const budget = Math.floor((withStacks + withoutStacks) / 2);
  const tight = await startIoApp(routes, { PROFILER_MAX_PROFILE_BYTES: String(budget) });
  try {
    const { profile } = await profiledRequest(tight, { path: '/many' });
    const stored = await tight.app.profiler?.storage.read(profile.token);
    t.true(stored?.kind === 'found' && Buffer.byteLength(stored.json) <= budget, `within ${budget} bytes`);
    t.like(profile.cut, { strings: 0, collectors: [], stacks: MANY.length });
    const kept = database(profile).queries;
    t.is(kept.length, MANY.length);
    t.true(kept.every((query) => query.stack === undefined && query.origin?.line === queryLine));
    t.true((await page(tight, profile.token, 'panel=db')).includes(`the call stacks of ${MANY.length} call(s) were left out`));
  } finally {
    await tight.close();
  }
});
