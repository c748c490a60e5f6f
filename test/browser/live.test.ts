import test from 'ava';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser } from 'playwright-core';
import { httpRequest } from '../helpers/http-client';
import { ARTIFACTS, launchChromium } from '../helpers/chromium';
import { startTestServer, type TestServer } from '../helpers/test-server';


let server: TestServer;
let browser: Browser | undefined;
let launchError: string | undefined;

test.before(async () => {
  server = await startTestServer();
  ({ browser, launchError } = await launchChromium());
});

test.after.always(async () => {
  await browser?.close();
  await server?.close();
});

test('the search page shows a request made after it opened at the top of its table, and its filters hide it', async (t) => {
  if (browser === undefined) throw new Error(launchError ?? 'Chromium did not start.');
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await httpRequest(server.port, { path: '/hello/earlier' });
  await server.profiler?.writer.whenIdle();
  await page.goto(`http://127.0.0.1:${server.port}/_profiler/empty/search/results?limit=10`);
  await page.locator('section.live[data-live-state="open"]').waitFor({ timeout: 20_000 });

  const res = await httpRequest(server.port, { path: '/hello/live-anna?password=hunter2' });
  const token = String(res.headers['x-debug-token']);
  const row = page.locator(`table.results tr.live[data-token="${token}"]`);
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  t.is(await page.locator('table.results tbody tr').first().getAttribute('data-token'), token, 'the newest row is the first');
  const text = await row.innerText();
  t.regex(text, /200/);
  t.regex(text, /\/hello\/live-anna\?password=/);
  t.false(text.includes('hunter2'), text);
  t.is(await row.locator('a').first().getAttribute('href'), `/_profiler/${token}`);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, 'live.png'), fullPage: true });

  await page.fill('input[name="live-path"]', '/nowhere');
  await row.waitFor({ state: 'hidden' });
  await page.fill('input[name="live-path"]', '');
  await page.selectOption('select[name="live-status"]', '5');
  await row.waitFor({ state: 'hidden' });
  await page.selectOption('select[name="live-status"]', '2');
  await row.waitFor({ state: 'visible' });
  await page.screenshot({ path: path.join(ARTIFACTS, 'live-filtered.png'), fullPage: true });

  // Paused, a new request waits; resumed, it is shown.
  await page.click('button.live-pause');
  const later = await httpRequest(server.port, { path: '/hello/while-paused' });
  const laterToken = String(later.headers['x-debug-token']);
  await server.profiler?.writer.whenIdle();
  const laterRow = page.locator(`tr.live[data-token="${laterToken}"]`);
  await page.locator('.live-state', { hasText: /paused \([1-9]\d* new\)/ }).waitFor({ timeout: 20_000 });
  t.is(await laterRow.count(), 0, 'held while paused');
  await page.click('button.live-pause');
  await laterRow.waitFor({ state: 'visible', timeout: 20_000 });
  t.deepEqual(problems, [], 'no script error and no CSP violation');
  await page.close();
});

test('the search page allows exactly its own script and WebSockets to itself', async (t) => {
  const res = await httpRequest(server.port, { path: '/_profiler/empty/search/results' });
  const csp = String(res.headers['content-security-policy']);
  t.regex(csp, /default-src 'none'/);
  t.regex(csp, /script-src 'sha256-[A-Za-z0-9+/]+=*';/);
  t.regex(csp, /connect-src 'self'/);
  const profile = await httpRequest(server.port, { path: '/_profiler/latest' });
  t.false(String(profile.headers['content-security-policy']).includes('script-src'), 'other panel pages run no script');
});

test.serial('a live row keeps the table to one page, and the heading and the pager count it alike', async (t) => {
  if (browser === undefined) throw new Error(launchError ?? 'Chromium did not start.');
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  for (const name of ['one', 'two', 'three']) await httpRequest(server.port, { path: `/hello/${name}` });
  await server.profiler?.writer.whenIdle();
  await page.goto(`http://127.0.0.1:${server.port}/_profiler/empty/search/results?limit=2`);
  await page.locator('section.live[data-live-state="open"]').waitFor({ timeout: 20_000 });
  const before = Number(await page.locator('.result-count').getAttribute('data-total'));
  t.true(before >= 3);
  const res = await httpRequest(server.port, { path: '/hello/paged' });
  await page.locator(`table.results tr.live[data-token="${String(res.headers['x-debug-token'])}"]`).waitFor({ state: 'visible', timeout: 20_000 });
  await page.waitForTimeout(300);
  const total = Number(await page.locator('.result-count').getAttribute('data-total'));
  t.true(total > before);
  t.is(await page.locator('.result-count').innerText(), `${total} results found`);
  t.is(await page.locator('.pager [data-range]').innerText(), `1–2 of ${total}, page 1 of ${Math.ceil(total / 2)}`);
  t.is(await page.locator('table.results tbody tr:visible').count(), 2, 'the table holds one page of 2 rows');
  await page.close();
});
