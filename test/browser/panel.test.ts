import test from 'ava';
import { type Browser, type Page } from 'playwright-core';
import { LIVE_SCRIPT } from '../../src/profiler/ui/panel/live-script';
import { httpRequest } from '../helpers/http-client';
import { launchChromium } from '../helpers/chromium';
import { startTestServer, type TestServer } from '../helpers/test-server';


let server: TestServer;
let origin: string;
let browser: Browser | undefined;
let launchError: string | undefined;

test.before(async () => {
  server = await startTestServer();
  origin = `http://127.0.0.1:${server.port}`;
  ({ browser, launchError } = await launchChromium());
});

test.after.always(async () => {
  await browser?.close();
  await server?.close();
});

/** A page that records dialogs and every URL it requested. */
async function openPage(): Promise<{ page: Page; dialogs: string[]; requested: string[] }> {
  if (browser === undefined) throw new Error(launchError ?? 'Chromium did not start.');
  const page = await browser.newPage();
  const dialogs: string[] = [];
  const requested: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => requested.push(request.url()));
  return { page, dialogs, requested };
}

/** Sends a request from Node (raw path and headers, as an attacker would) and waits for its profile. */
async function profiledRequest(path: string, headers: Record<string, string> = {}): Promise<{ link: string; previous: string }> {
  const res = await httpRequest(server.port, { path, headers });
  await server.profiler?.writer.whenIdle();
  return { link: String(res.headers['x-debug-token-link']), previous: String(res.headers['x-previous-debug-token']) };
}

test('a person opening the panel of a 404 sees the error, the menu, and can move between panels', async (t) => {
  const { page, requested } = await openPage();
  const { link, previous } = await profiledRequest('/config.yaml');
  const response = await page.goto(link);
  t.is(response?.status(), 200);
  t.is(await page.title(), 'Loupe Profiler');
  t.is((await page.locator('.summary h2').innerText()).trim(), 'Error 404 Not Found');
  const messages = await page.locator('.error-message').allInnerTexts();
  t.true(messages.includes(`No route found for "GET ${origin}/config.yaml"`), messages.join(' | '));
  t.true(messages.includes('No routes found for "/config.yaml/".'));
  t.deepEqual(await page.locator('.menu a > span:first-child').allInnerTexts(), ['Request / Response', 'Performance', 'Exception', 'Logs', 'Database', 'HTTP Client', 'Redis', 'Events', 'Routing', 'State machine']);
  t.is(await page.locator('.menu a[aria-current="page"]').getAttribute('data-panel'), 'exception');

  await page.getByRole('link', { name: 'Events' }).click();
  await page.waitForURL(/panel=events/);
  t.is(await page.locator('.panel h2').innerText(), 'Events');
  t.deepEqual(await page.locator('.timeline .row .label').allInnerTexts(), ['kernel.request', 'kernel.exception', 'kernel.response', 'kernel.finish_request', 'kernel.terminate']);
  t.true(await page.getByRole('cell', { name: 'RouterListener' }).first().isVisible());

  await page.getByRole('link', { name: 'Routing' }).click();
  await page.waitForURL(/panel=router/);
  t.regex(await page.locator('.routing-failure').innerText(), /^No route found for "GET /);

  await page.locator('.children a').first().click();
  await page.waitForURL(new RegExp(`/_profiler/${previous}$`));
  t.regex(await page.locator('.parent').innerText(), /^Sub-request of [0-9a-f]{6}/);
  t.true(requested.every((url) => url.startsWith(`${origin}/`)), `only the server was asked: ${requested.join(', ')}`);
  // The pages name an empty icon: no /favicon.ico request becomes a 404 profile (and the "latest").
  t.false(requested.some((url) => url.includes('favicon')), requested.join(', '));
  await server.profiler?.writer.whenIdle();
  t.deepEqual(await server.profiler?.storage.find({ url: 'favicon' }), []);
  await page.close();
});

test('script in the URL path and markup in the Referer are shown as text and never run', async (t) => {
  const path = '/<script>window.__xss=1</script>';
  const referer = '"><img src=x onerror="window.__xss=2">';
  const { link } = await profiledRequest(path, { Referer: referer });
  const { page, dialogs, requested } = await openPage();
  const token = new URL(link).pathname.split('/').pop() ?? '';
  for (const url of [link, `${link}?panel=request`, `${link}?panel=router`, `${link}?panel=logs`, `${origin}/_profiler/search?url=script`]) {
    await page.goto(url);
    const text = await page.locator('body').innerText();
    // The search results show the path, the whole URL in the cell's title.
    t.true(text.includes(url.includes('/search') ? path : `${origin}${path}`), `${url}: the URL is shown literally`);
    if (!url.includes('/search')) t.true(text.includes(referer), `${url}: the Referer is shown literally`);
    // Expressions as strings: the test code is compiled without the DOM library.
    t.is(await page.evaluate<string>('typeof window.__xss'), 'undefined', url);
    // The search page runs one script of its own, the live list; nothing else is a script or an image.
    const own = url.includes('/search') ? 1 : 0;
    t.is(await page.evaluate<number>('document.scripts.length + document.images.length'), own, `${url}: no element was injected`);
    if (own === 1) t.is(await page.evaluate<string>('document.scripts[0].textContent'), LIVE_SCRIPT, url);
  }
  t.true((await page.locator('.results').innerText()).includes(token));
  t.is(await page.locator(`.results tr[data-token="${token}"] td.url`).getAttribute('title'), `${origin}${path}`);
  t.deepEqual(dialogs, []);
  t.true(requested.every((url) => url.startsWith(`${origin}/`)), `nothing but the server was requested (an injected <img> would have been): ${requested.join(', ')}`);
  await page.close();
});

test('the Performance panel draws its waterfall under the CSP: bars placed, coloured by category, exact times on hover', async (t) => {
  const { link } = await profiledRequest('/slow?ms=40');
  const { page, requested } = await openPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(`${link}?panel=performance`);
  t.is(await page.locator('.panel h2').innerText(), 'Performance');
  // The waterfall shown at first; the whole one is folded in a <details> under it.
  const wait = page.locator('.panel > .waterfall .row[data-category="app"] .bar');
  const track = page.locator('.panel > .waterfall .row[data-category="app"] .track');
  const [bar, whole] = [await wait.boundingBox(), await track.boundingBox()];
  const styled = Number(/width:([\d.]+)%/.exec((await wait.getAttribute('style')) ?? '')?.[1] ?? Number.NaN);
  t.true(styled > 0, 'the wait is a visible share of the request');
  t.true(bar !== null && whole !== null && Math.abs((bar.width / whole.width) * 100 - styled) < 1, `the inline style places the bar: ${bar?.width} of ${whole?.width} px for ${styled} %`);
  t.is(await page.evaluate<string>('getComputedStyle(document.querySelector(\'.waterfall .row[data-category="controller"] .bar\')).backgroundColor'), 'rgb(79, 128, 93)');
  t.regex((await wait.getAttribute('title')) ?? '', /^wait \(application\): \d+\.\d{3} ms from \d+\.\d{3} ms, self \d+\.\d{3} ms$/);
  t.regex(await page.locator('.unaccounted').innerText(), /^unaccounted: \d+\.\d+ ms/);
  t.deepEqual(violations, [], 'the inline styles are allowed, nothing else was needed');
  t.true(requested.every((url) => url.startsWith(`${origin}/`)), requested.join(', '));
  await page.close();
});
