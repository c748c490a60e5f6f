import test from 'ava';
import { randomBytes } from 'node:crypto';
import { type Browser } from 'playwright-core';
import pg from 'pg';
import { LoupeResponse } from '../../src';
import { launchChromium } from '../helpers/chromium';
import { profiledRequest, startIoApp, type IoApp } from '../profiler/app-io/io-app';

/* A person clicks Explain on a query of the Database panel, then EXPLAIN ANALYZE, in a real browser: the forms post from the profiler's own page. */

const table = `loupe_explain_browser_${randomBytes(3).toString('hex')}`;
const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

let pgPool: pg.Pool;
let io: IoApp;
let browser: Browser | undefined;
let launchError: string | undefined;

test.before(async () => {
  pgPool = new pg.Pool({ connectionString: PG_URL, max: 2 });
  await pgPool.query(`CREATE TABLE ${table} (id int PRIMARY KEY, name text)`);
  await pgPool.query(`INSERT INTO ${table} SELECT g, 'user' || g FROM generate_series(1, 100) g`);
  io = await startIoApp(
    [{ name: 'users', path: '/users/{name}', methods: ['GET'], controller: { name: 'users', handle: async ({ params }) => LoupeResponse.json((await pgPool.query(`SELECT id FROM ${table} WHERE name = $1`, [params['name']])).rows) } }],
    { PROFILER_EXPLAIN_DATABASE_URL: PG_URL },
  );
  ({ browser, launchError } = await launchChromium());
});

test.after.always(async () => {
  await browser?.close();
  await io?.close();
  await pgPool?.query(`DROP TABLE IF EXISTS ${table}`).catch(() => undefined);
  await pgPool?.end();
});

test('a person clicks Explain on a query, reads the plan with its Seq Scan marked, then runs EXPLAIN ANALYZE', async (t) => {
  if (browser === undefined) throw new Error(launchError ?? 'Chromium did not start.');
  const { profile } = await profiledRequest(io, { path: '/users/user7' });
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(`http://127.0.0.1:${io.port}/_profiler/${profile.token}?panel=db`);
  await page.getByRole('button', { name: 'Explain' }).click();
  await page.waitForURL(new RegExp(`/_profiler/${profile.token}/explain/1$`));
  t.is(await page.locator('.explain h2').innerText(), 'EXPLAIN of query #1');
  const scan = page.locator('.plan-node.full-scan').first();
  t.is(await scan.locator('> .plan-label').innerText(), `Seq Scan on ${table}`);
  t.is(await scan.locator('> .flag-full-scan').innerText(), 'Seq Scan');
  t.regex(await scan.locator('> .plan-rows').innerText(), /^rows=\d+$/);
  await page.getByRole('button', { name: 'Run EXPLAIN ANALYZE' }).click();
  await page.waitForURL(new RegExp(`/_profiler/${profile.token}/explain/1/analyze$`));
  t.is(await page.locator('.explain h2').innerText(), 'EXPLAIN ANALYZE of query #1');
  t.is(await page.locator('.plan-node.full-scan > .plan-actual-rows').first().innerText(), 'actual rows=1');
  await page.getByRole('link', { name: /Database panel of/ }).click();
  await page.waitForURL(/panel=db/);
  t.deepEqual(problems, [], 'no script and no policy violation');
  await page.close();
});
