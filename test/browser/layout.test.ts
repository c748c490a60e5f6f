import test from 'ava';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { httpRequest } from '../helpers/http-client';
import { ARTIFACTS, launchChromium } from '../helpers/chromium';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { profileRequests } from '../profiler/ui/cli/profile-requests';

// The profiler's main pages as a person sees them: screenshots (in test-artifacts/, to look at)
// and a check that no table header or cell breaks a word over two lines ("Metho d").

let server: TestServer;
let origin: string;
let browser: Browser | undefined;
let launchError: string | undefined;
let tokens: { hello: string; notFound: string; fast: string; slow: string; post: string; long: string };

/** A path segment long enough to need a line of its own in a narrow URL column. */
const LONG_NAME = 'the_dashboard_of_rather_long_names';

test.before(async () => {
  server = await startTestServer();
  origin = `http://127.0.0.1:${server.port}`;
  ({ browser, launchError } = await launchChromium());
  const [hello = '', notFound = '', fast = '', slow = '', post = '', long = ''] = await profileRequests(server, [
    { path: '/hello/anna?utm_source=newsletter' },
    { path: '/config.yaml' },
    { path: '/slow?ms=1' },
    { path: '/slow?ms=30' },
    { method: 'POST', path: '/hello/bob' },
    { path: `/hello/${LONG_NAME}?utm_source=newsletter&utm_campaign=the_autumn_sale` },
  ]);
  tokens = { hello, notFound, fast, slow, post, long };
});

test.after.always(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * In the page: every table header and cell, and every form label, whose text is one word (no
 * space) but whose text is laid out on more than one line. A URL cell may wrap (a URL can be
 * longer than any column); preformatted values are left out. A string: the test code is
 * compiled without the DOM library.
 */
const BROKEN_WORDS = `(() => {
  const broken = [];
  for (const element of document.querySelectorAll('th, td, form label, .live-filters label')) {
    if (element.closest('details:not([open])') || element.matches('td.url') || element.querySelector('pre, textarea, table')) continue;
    const text = element.innerText.trim();
    if (text === '' || /\\s/.test(text)) continue;
    // The lines of its text only: a label's input sits on a line of its own by design.
    const lines = new Set();
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) if (rect.width > 0) lines.add(Math.round(rect.top));
    }
    if (lines.size > 1) broken.push(element.tagName.toLowerCase() + ' "' + text + '" on ' + lines.size + ' lines');
  }
  return broken;
})()`;

async function open(width: number): Promise<Page> {
  if (browser === undefined) throw new Error(launchError ?? 'Chromium did not start.');
  return browser.newPage({ viewport: { width, height: 900 } });
}

/** Loads `url`, saves a full-page screenshot as `name`, and answers the words it finds broken. */
async function brokenWords(page: Page, url: string, name: string): Promise<string[]> {
  const response = await page.goto(url);
  if (response?.status() !== 200) throw new Error(`${url} answered ${String(response?.status())}.`);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  return page.evaluate<string[]>(BROKEN_WORDS);
}

const PAGES = (): readonly (readonly [string, string])[] => [
  ['search', '/_profiler/empty/search/results?limit=50'],
  ['search-with-sub-requests', '/_profiler/empty/search/results?sub_requests=1'],
  ['request', `/_profiler/${tokens.hello}?panel=request`],
  ['performance', `/_profiler/${tokens.notFound}?panel=performance`],
  ['exception', `/_profiler/${tokens.notFound}?panel=exception`],
  ['database', `/_profiler/${tokens.hello}?panel=db`],
  ['events', `/_profiler/${tokens.hello}?panel=events`],
  ['routing', `/_profiler/${tokens.notFound}?panel=router`],
  ['machine', `/_profiler/${tokens.hello}?panel=machine`],
  ['status', '/_profiler/status'],
  ['compare', `/_profiler/${tokens.fast}/compare/${tokens.slow}`],
];

for (const width of [1280, 900]) {
  test(`at ${width} px wide, no header or cell of the profiler's main pages breaks a word over two lines`, async (t) => {
    const page = await open(width);
    const broken: string[] = [];
    for (const [name, url] of PAGES()) for (const word of await brokenWords(page, `${origin}${url}`, `${name}-${width}`)) broken.push(`${name}: ${word}`);
    t.deepEqual(broken, []);
    await page.close();
  });
}

test('the live rows of the search page break no word either, and read as the stored rows', async (t) => {
  const page = await open(900);
  await page.goto(`${origin}/_profiler/empty/search/results?limit=50`);
  await page.locator('section.live[data-live-state="open"]').waitFor({ timeout: 20_000 });
  const before = Number(await page.locator('.result-count').getAttribute('data-total'));
  const res = await httpRequest(server.port, { path: '/config.yaml?live=1' });
  const token = String(res.headers['x-debug-token']);
  const row = page.locator(`table.results tr.live[data-token="${token}"]`);
  await row.waitFor({ state: 'visible', timeout: 20_000 });
  await page.screenshot({ path: path.join(ARTIFACTS, 'search-live-900.png'), fullPage: true });
  t.deepEqual(await page.evaluate<string[]>(BROKEN_WORDS), []);
  const cells = await row.locator('td').allInnerTexts();
  t.is(cells.length, 8, cells.join(' | '));
  t.deepEqual(cells.slice(0, 4), ['404', '127.0.0.1', 'GET', '/config.yaml?live=1']);
  t.is(await row.locator('td.url').getAttribute('title'), `${origin}/config.yaml?live=1`);
  t.is(await row.locator('td.status').getAttribute('title'), 'Not Found');
  t.regex(cells[4] ?? '', /^\d{4}-\d\d-\d\dT/);
  t.regex(cells[5] ?? '', /^\d+\.\d+ m?s$/);
  t.is(cells[6], '0', 'its query count, as a stored row has it');
  t.is(cells[7], token);
  // Its error sub-request is not listed, as it is not among the stored rows; the count follows the rows.
  await page.waitForTimeout(500);
  t.is(await page.locator('table.results tr.live.sub').count(), 0);
  t.is(await page.locator('.result-count').getAttribute('data-total'), String(before + 1));
  t.is(await page.locator('.result-count').innerText(), `${before + 1} results found`);
  await page.close();
});

test('the search form\'s checkboxes sit on the line of their labels, before the text', async (t) => {
  const page = await open(1280);
  await page.goto(`${origin}/_profiler/empty/search/results`);
  const toggles = page.locator('form.search label.toggle');
  t.is(await toggles.count(), 4);
  for (const label of await toggles.all()) {
    const box = await label.locator('input[type="checkbox"]').boundingBox();
    const whole = await label.boundingBox();
    if (box === null || whole === null) throw new Error('A search toggle is not laid out.');
    t.true(whole.height < box.height * 2.5, `one line: the label is ${whole.height} px high, its box ${box.height} px`);
    t.true(Math.abs(box.x - whole.x) < 2, 'the box comes first');
    t.true(box.y >= whole.y - 1 && box.y + box.height <= whole.y + whole.height + 1, 'the box is inside the line of its text');
  }
  t.is(await page.locator('input[name="limit"]').getAttribute('placeholder'), '50');
  await page.close();
});

test('on the Performance panel the folded spans open with one click, without script', async (t) => {
  const page = await open(1280);
  await page.goto(`${origin}/_profiler/${tokens.notFound}?panel=performance`);
  const first = await page.locator('.panel > .waterfall .row:not(.head)').count();
  t.false(await page.locator('details.all-spans .waterfall').isVisible());
  await page.locator('details.all-spans > summary').click();
  t.true(await page.locator('details.all-spans .waterfall').isVisible());
  t.true((await page.locator('details.all-spans .waterfall .row:not(.head)').count()) > first);
  await page.screenshot({ path: path.join(ARTIFACTS, 'performance-unfolded.png'), fullPage: true });
  await page.close();
});

/** In the page: each text run of the search results' URL cells laid out on more than one line. */
const URL_RUNS_BROKEN = `(() => {
  const broken = [];
  for (const cell of document.querySelectorAll('table.results td.url')) {
    for (const node of cell.childNodes) {
      if (node.nodeType !== Node.TEXT_NODE) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
      if (lines.size > 1) broken.push(node.textContent);
    }
  }
  return broken;
})()`;

test('the search results show each URL as its path, broken only after a slash, with the whole URL as its title', async (t) => {
  const page = await open(900);
  await page.goto(`${origin}/_profiler/empty/search/results?limit=50`);
  const cell = page.locator(`table.results tr[data-token="${tokens.long}"] td.url`);
  t.is(await cell.innerText().then((text) => text.replace(/\s/g, '')), `/hello/${LONG_NAME}?utm_source=newsletter&utm_campaign=the_autumn_sale`);
  t.is(await cell.getAttribute('title'), `${origin}/hello/${LONG_NAME}?utm_source=newsletter&utm_campaign=the_autumn_sale`);
  const box = await cell.boundingBox();
  t.true((box?.height ?? 0) > 30, 'the long URL takes more than one line at this width');
  t.deepEqual(await page.evaluate<string[]>(URL_RUNS_BROKEN), []);
  await page.close();
});

test('the search results\' Status column is as narrow as a status code, amber for a 4xx, the reason phrase in its title', async (t) => {
  const page = await open(1280);
  await page.goto(`${origin}/_profiler/empty/search/results?limit=50`);
  const header = await page.locator('table.results thead th').first().boundingBox();
  t.true((header?.width ?? 999) < 90, `the Status column is ${String(header?.width)} px wide`);
  const status = page.locator(`table.results tr[data-token="${tokens.notFound}"] td.status`);
  t.is(await status.innerText(), '404');
  t.is(await status.getAttribute('title'), 'Not Found');
  t.is(await page.evaluate<string>(`getComputedStyle(document.querySelector('tr[data-token="${tokens.notFound}"] td.status')).color`), 'rgb(164, 106, 31)');
  await page.close();
});

test('the search form\'s Sort and Order selects line up with its text fields, as high and on the same baseline', async (t) => {
  const page = await open(1280);
  await page.goto(`${origin}/_profiler/empty/search/results`);
  const field = await page.locator('form.search input[name="limit"]').boundingBox();
  for (const name of ['sort', 'order']) {
    const select = await page.locator(`form.search select[name="${name}"]`).boundingBox();
    if (field === null || select === null) throw new Error('The search form is not laid out.');
    t.true(Math.abs(select.height - field.height) <= 1, `${name}: ${select.height} px high, the fields ${field.height} px`);
    t.true(Math.abs(select.y + select.height - (field.y + field.height)) <= 1, `${name}: its bottom is at ${select.y + select.height}, the fields' at ${field.y + field.height}`);
  }
  await page.close();
});

test('the Exception panel sets its source lines in a monospace font', async (t) => {
  const page = await open(1280);
  await page.goto(`${origin}/_profiler/${tokens.notFound}?panel=exception`);
  const source = page.locator('.source').first();
  t.true(await source.isVisible(), 'the panel shows a source excerpt');
  t.regex(await page.evaluate<string>("getComputedStyle(document.querySelector('.source')).fontFamily"), /monospace/);
  await page.close();
});
