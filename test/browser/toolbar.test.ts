import test from 'ava';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { responseDirectivesListener } from '../helpers/response-directives';
import { ARTIFACTS, launchChromium } from '../helpers/chromium';
import { startTestServer, type TestServer } from '../helpers/test-server';


let server: TestServer;
let origin: string;
let browser: Browser | undefined;
let launchError: string | undefined;

test.before(async () => {
  server = await startTestServer({}, { listeners: [responseDirectivesListener] });
  origin = `http://127.0.0.1:${server.port}`;
  await mkdir(ARTIFACTS, { recursive: true });
  ({ browser, launchError } = await launchChromium());
});

test.after.always(async () => {
  await browser?.close();
  await server?.close();
});


/** A page at a desktop size that records what the console said (a refused script or stylesheet shows there). */
async function openPage(): Promise<{ page: Page; console: string[] }> {
  if (browser === undefined) throw new Error(launchError ?? 'Chromium did not start.');
  const page = await browser.newPage({ viewport: { width: 1100, height: 420 } });
  const console: string[] = [];
  page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
  return { page, console };
}

/** A computed style of the first element matching `selector` (an expression string: the test code is compiled without the DOM library). */
function styleOf(page: Page, selector: string, property: string): Promise<string> {
  return page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)}))[${JSON.stringify(property)}]`);
}

/** Opens `path` and waits until the toolbar's content has loaded into the bar. */
async function openWithToolbar(page: Page, path: string): Promise<string> {
  const response = await page.goto(`${origin}${path}`);
  const token = (await response?.headerValue('x-debug-token')) ?? '';
  await page.locator(`#loupe-wdt-${token}[data-state="loaded"]`).waitFor({ state: 'attached', timeout: 10_000 });
  return token;
}

test('a person on the welcome page sees the toolbar at the bottom with the status, and its link opens the profile', async (t) => {
  const { page, console } = await openPage();
  const token = await openWithToolbar(page, '/');
  t.regex(token, /^[0-9a-f]{6}$/);
  const bar = page.locator('.lwdt-bar');
  t.is(await styleOf(page, '.lwdt-bar', 'position'), 'fixed');
  const box = await bar.boundingBox();
  t.truthy(box);
  t.is(Math.round((box?.y ?? 0) + (box?.height ?? 0)), 420, 'at the bottom of the window');
  t.true((box?.height ?? 0) <= 40, 'small');
  t.is((await page.locator('.lwdt-status').innerText()).trim(), '200');
  t.is(await page.locator('.lwdt-status').getAttribute('title'), '200 OK');
  t.is((await page.locator('.lwdt-route .lwdt-value').innerText()).trim(), 'home');
  t.regex(await page.locator('.lwdt-time .lwdt-value').innerText(), /^\d+(\.\d+)? (ms|s)$/);
  t.true((await page.locator('.lwdt-timeline rect').count()) >= 5, 'the states as a timeline');
  t.regex(await page.locator('.lwdt-memory').innerText(), /^\d+\.\d\s*MiB$/);
  t.is((await page.locator('.lwdt-errors .lwdt-value').innerText()).trim(), '0');
  await page.locator('.lwdt-time').hover();
  t.true(await page.locator('.lwdt-time .lwdt-info').isVisible(), 'hovering the duration lists the states');
  t.true((await page.locator('.lwdt-time .lwdt-info').innerText()).includes('kernel.request'));
  await page.screenshot({ path: path.join(ARTIFACTS, 'toolbar-timeline.png') });
  await page.mouse.move(5, 5);
  t.false(await page.locator('.lwdt-time .lwdt-info').isVisible());
  await page.screenshot({ path: path.join(ARTIFACTS, 'toolbar.png') });

  await page.locator('.lwdt-profile').click();
  await page.waitForURL(`${origin}/_profiler/${token}`);
  t.is(await page.title(), 'Loupe Profiler');
  t.true((await page.locator('.summary .token').innerText()).includes(token));
  t.is(await page.locator('.lwdt').count(), 0, 'the profiler itself has no toolbar');
  t.deepEqual(console, []);
  await page.close();
});

test('on the error page the toolbar shows the 500 in red and the errors, linking to the exception', async (t) => {
  const { page } = await openPage();
  const token = await openWithToolbar(page, '/boom');
  t.is((await page.locator('.lwdt-status').innerText()).trim(), '500');
  t.is(await styleOf(page, '.lwdt-status', 'backgroundColor'), 'rgb(179, 54, 47)');
  t.true(Number(await page.locator('.lwdt-errors .lwdt-value').innerText()) >= 1);
  t.is(await page.locator('.lwdt-errors a').getAttribute('href'), `/_profiler/${token}?panel=exception`);
  await page.screenshot({ path: path.join(ARTIFACTS, 'toolbar-error.png') });
  await page.locator('.lwdt-errors a').click();
  await page.waitForURL(`${origin}/_profiler/${token}?panel=exception`);
  t.true((await page.locator('body').innerText()).includes('Boom! This controller failed on purpose.'));
  await page.close();
});

test('the toolbar collapses to a small button and stays collapsed on the next page until opened again', async (t) => {
  const { page } = await openPage();
  await openWithToolbar(page, '/');
  await page.locator('.lwdt-toggle').click();
  t.false(await page.locator('.lwdt-status').isVisible());
  const collapsed = await page.locator('.lwdt-bar').boundingBox();
  t.true((collapsed?.width ?? 999) <= 40, `${collapsed?.width}`);
  t.is(await page.locator('.lwdt-toggle').getAttribute('aria-expanded'), 'false');
  await page.screenshot({ path: path.join(ARTIFACTS, 'toolbar-collapsed.png') });
  await openWithToolbar(page, '/hello/anna');
  t.false(await page.locator('.lwdt-status').isVisible(), 'remembered');
  await page.locator('.lwdt-toggle').click();
  t.true(await page.locator('.lwdt-status').isVisible());
  await page.close();
});

test("under a strict Content-Security-Policy (default-src 'none') the toolbar still loads and is styled", async (t) => {
  const { page, console } = await openPage();
  const csp = encodeURIComponent("default-src 'none'; style-src 'self'; img-src data:");
  await openWithToolbar(page, `/?csp=${csp}`);
  t.is(await styleOf(page, '.lwdt-bar', 'position'), 'fixed', 'the stylesheet applied');
  t.is((await page.locator('.lwdt-status').innerText()).trim(), '200');
  // The page's own inline stylesheet is refused, as its policy says; nothing of the toolbar's is.
  t.true(console.every((line) => !/script|connect/i.test(line)), console.join('\n'));
  t.true(console.some((line) => /Applying inline style violates/.test(line)), `the policy is enforced on the page: ${console.join(' | ')}`);
  await page.close();
});
