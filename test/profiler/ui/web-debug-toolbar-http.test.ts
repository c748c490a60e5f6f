import test from 'ava';
import { performance } from 'node:perf_hooks';
import { machineOf } from '../../../src/profiler/collect/collectors/machine-view';
import { type Profile } from '../../../src/profiler/profile';
import { toolbarAssetPath } from '../../../src/profiler/ui/toolbar/toolbar-assets';
import { httpRequest, type HttpResult } from '../../helpers/http-client';
import { responseDirectivesListener } from '../../helpers/response-directives';
import { startTestServer, type TestServer } from '../../helpers/test-server';

let server: TestServer;
const others: TestServer[] = [];

test.before(async () => {
  server = await startTestServer({}, { listeners: [responseDirectivesListener] });
});

test.after.always(async () => {
  await Promise.all([server?.close(), ...others.map((other) => other.close())]);
});

const get = (path: string, headers: Record<string, string> = {}, port = server.port): Promise<HttpResult> => httpRequest(port, { path, headers });

function tokenOf(res: HttpResult): string {
  const token = res.headers['x-debug-token'];
  if (typeof token !== 'string') throw new Error(`no X-Debug-Token: ${JSON.stringify(res.headers)}`);
  return token;
}

/** The injected toolbar: from the newline before its stylesheet to the newline after its script. */
const TOOLBAR = /\n<link rel="stylesheet" href="\/_wdt\/assets\/toolbar\.[0-9a-f]{12}\.css"(?: nonce="[^"]*")?><div id="loupe-wdt-([0-9a-f]{6})".*?<script src="\/_wdt\/assets\/toolbar\.[0-9a-f]{12}\.js"(?: nonce="[^"]*")?><\/script>\n/s;

function hasToolbar(res: HttpResult): boolean {
  return res.body.includes('loupe-wdt-');
}

/** The stored profile of `token`, through the profiler's JSON API. */
async function storedProfile(token: string): Promise<{ collectors: Record<string, Record<string, unknown>> }> {
  await server.profiler?.writer.whenIdle();
  const res = await get(`/_profiler/${token}`, { Accept: 'application/json' });
  return JSON.parse(res.body) as { collectors: Record<string, Record<string, unknown>> };
}

test('a profiled HTML page gets the toolbar once, before </body>, naming its token; Content-Length counts it', async (t) => {
  const res = await get('/');
  t.is(res.status, 200);
  const token = tokenOf(res);
  const match = TOOLBAR.exec(res.body);
  if (match === null) return t.fail(res.body.slice(-500));
  t.is(match[1], token);
  t.is(res.body.indexOf('loupe-wdt-'), res.body.lastIndexOf('loupe-wdt-'), 'once');
  t.true(res.body.endsWith(`${match[0]}</body></html>`));
  t.true(match[0].includes(`data-src="/_wdt/${token}"`));
  t.true(match[0].includes(`href="/_profiler/${token}"`), 'the placeholder links to the profile before anything loads');
  t.is(res.headers['content-length'], String(Buffer.byteLength(res.body)));
  const without = await get('/?toolbar=off');
  t.is(Buffer.byteLength(without.body) + Buffer.byteLength(match[0]), Buffer.byteLength(res.body), 'the page around it is untouched');
});

test('error pages are HTML pages too: a 404 and a 500 get the toolbar', async (t) => {
  for (const path of ['/config.yaml', '/boom']) {
    const res = await get(path);
    t.true(TOOLBAR.test(res.body), path);
    t.is(res.headers['content-length'], String(Buffer.byteLength(res.body)), path);
  }
});

test('no toolbar in the profiler, its toolbar content, redirects, JSON, XHR, attachments, pages without </body>, or when the response says off; HEAD counts it as its GET does', async (t) => {
  const page = await get('/');
  const token = tokenOf(page);
  await server.profiler?.writer.whenIdle();
  const cases: [string, Promise<HttpResult>][] = [
    ['a profile page', get(`/_profiler/${token}`)],
    ['the status page', get('/_profiler/status')],
    ['a 404 under /_profiler', get('/_profiler/not-a-token')],
    ['the toolbar content', get(`/_wdt/${token}`)],
    ['a 404 under /_wdt', get('/_wdt/not-a-token')],
    ['a redirect', get('/hello/anna/')],
    ['JSON', get('/session')],
    ['a JSON error', get('/config.yaml', { Accept: 'application/json' })],
    ['XHR', get('/', { 'X-Requested-With': 'XMLHttpRequest' })],
    ['an attachment', get(`/?disposition=${encodeURIComponent('attachment; filename="page.html"')}`)],
    ['an attachment, upper case', get('/?disposition=ATTACHMENT')],
    ['X-Debug-Toolbar: off', get('/?toolbar=off')],
    ['no </body>', get('/?cut=1')],
  ];
  for (const [name, pending] of cases) {
    const res = await pending;
    t.false(hasToolbar(res), name);
    t.is(res.headers['x-debug-toolbar'], undefined, `${name}: the directive is for Loupe, not the client`);
  }
  t.is((await get('/hello/anna/')).status, 301);
  t.true(hasToolbar(await get('/?disposition=inline')), 'an inline disposition is a page');
  const head = await httpRequest(server.port, { method: 'HEAD', path: '/' });
  t.is(head.body, '');
  const withToolbar = await get('/');
  t.true(hasToolbar(withToolbar));
  t.is(head.headers['content-length'], String(Buffer.byteLength(withToolbar.body)), 'HEAD: the Content-Length of its GET, toolbar included (RFC 9110 §9.3.2)');
});

test('/_wdt/{token} shows the status, route, duration with the states, memory, error count and the profile link', async (t) => {
  const res = await get('/');
  const token = tokenOf(res);
  // Asked at once, as the page's script does: the profile is written after the response, and the toolbar waits for it.
  const wdt = await get(`/_wdt/${token}`);
  t.is(wdt.status, 200);
  t.is(wdt.headers['content-type'], 'text/html; charset=UTF-8');
  t.is(wdt.headers['x-debug-token'], undefined, 'the toolbar content is not profiled');
  t.regex(wdt.body, /^<span class="lwdt-item lwdt-brand"/);
  t.true(wdt.body.includes(`<a class="lwdt-item lwdt-status lwdt-status-ok" href="/_profiler/${token}?panel=request" title="200 OK">200</a>`));
  t.regex(wdt.body, /<span class="lwdt-label">GET<\/span><span class="lwdt-value">home<\/span>/);
  const profile = await storedProfile(token);
  // The states the State machine panel shows, read from the stored timeline.
  const states = (machineOf(profile as unknown as Profile)?.states ?? []).map((state) => state.name);
  t.true(states.includes('kernel.request') && states.includes('kernel.response'), states.join());
  const drawn = [...wdt.body.matchAll(/<rect class="lwdt-phase lwdt-phase-[^"]+" x="[\d.]+" width="[\d.]+" height="12"><title>([^:<]+):/g)].map((m) => m[1]);
  t.deepEqual(drawn, states, 'one bar per stored state, in order');
  const heapUsed = Number(profile.collectors['memory']?.['heapUsed']);
  t.true(heapUsed > 0);
  t.true(wdt.body.includes(`<span class="lwdt-value">${(heapUsed / 1024 / 1024).toFixed(1)}</span><span class="lwdt-unit">MiB</span>`));
  t.true(wdt.body.includes('lwdt-errors-none'));
  t.regex(wdt.body, /<span class="lwdt-value">0<\/span><span class="lwdt-label">errors<\/span>/);
  t.true(wdt.body.includes(`<a class="lwdt-item lwdt-profile" href="/_profiler/${token}"`));
});

test('/_wdt/{token} of an error: the status in red, the exception phase, and the exception counted once, not again for its own log line', async (t) => {
  const token = tokenOf(await get('/boom'));
  const wdt = await get(`/_wdt/${token}`);
  t.is(wdt.status, 200);
  t.true(wdt.body.includes(`lwdt-status-error" href="/_profiler/${token}?panel=request" title="500 Internal Server Error">500</a>`));
  t.true(wdt.body.includes('<title>kernel.exception:'));
  const { collectors } = await storedProfile(token);
  t.is((collectors['exception']?.['errors'] as unknown[]).length, 1);
  t.true((collectors['logs']?.['records'] as { level: string; message: string }[]).some((record) => record.level === 'critical' && record.message.startsWith('Uncaught Exception')), 'the kernel logged the exception');
  t.true(wdt.body.includes(`<div class="lwdt-item lwdt-block lwdt-errors lwdt-errors-some"><a href="/_profiler/${token}?panel=exception" title="1 error"><span class="lwdt-value">1</span><span class="lwdt-label">error</span>`));
  t.true(wdt.body.includes('<tr><th>Exceptions</th><td>1</td></tr><tr><th>Other logs at error level or above</th><td>0</td></tr>'));
});

test('/_wdt/{token} waits a bounded time for a profile that never comes, then answers 404 so the script may ask again', async (t) => {
  const start = performance.now();
  const res = await get('/_wdt/000000');
  const waited = performance.now() - start;
  t.is(res.status, 404);
  t.true(res.body.includes('The profile is not stored yet.'));
  t.true(res.body.includes('href="/_profiler/000000"'));
  t.true(waited >= 1_900 && waited < 4_000, `${waited} ms`);
  t.is((await get('/_wdt/ZZZ')).status, 404, 'not a token: no route');
});

test('a page with a Content-Security-Policy: the toolbar carries a nonce the rewritten policy allows', async (t) => {
  const res = await get(`/?csp=${encodeURIComponent("default-src 'none'; img-src 'self'")}`);
  const policy = String(res.headers['content-security-policy']);
  const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
  if (nonce === undefined) return t.fail(policy);
  t.is(policy, `default-src 'none'; img-src 'self'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'`);
  t.true(res.body.includes(`<link rel="stylesheet" href="${toolbarAssetPath('css')}" nonce="${nonce}"><div id="loupe-wdt-`));
  t.true(res.body.includes(`<script src="${toolbarAssetPath('js')}" nonce="${nonce}"></script>\n</body>`));
  t.is(res.headers['content-length'], String(Buffer.byteLength(res.body)));
});

test('the page names the toolbar\'s stylesheet and script by version: served as files the browser keeps, any other version a 404', async (t) => {
  const page = await get('/');
  const css = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)?.[1];
  const js = /<script src="([^"]+)"><\/script>\n<\/body>/.exec(page.body)?.[1];
  if (css === undefined || js === undefined) return t.fail(page.body.slice(-400));
  const [style, script] = await Promise.all([get(css), get(js)]);
  t.is(style.status, 200);
  t.is(style.headers['content-type'], 'text/css; charset=UTF-8');
  t.true(style.body.includes('.lwdt'), 'the toolbar\'s rules');
  t.is(script.status, 200);
  t.is(script.headers['content-type'], 'text/javascript; charset=UTF-8');
  t.true(script.body.includes("root.getAttribute('data-src')"), 'the script that fetches the content');
  for (const res of [style, script]) {
    t.is(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    t.is(res.headers['x-content-type-options'], 'nosniff');
    t.is(res.headers['x-debug-token'], undefined, 'the profiler\'s own files are not profiled');
  }
  t.is((await get(css.replace(/\.[0-9a-f]{12}\./, '.000000000000.'))).status, 404, 'another version');
  t.is((await get('/_wdt/assets/other.js')).status, 404, 'no route');
});

test('a client outside PROFILER_ALLOWED_IPS gets no toolbar, and /_wdt refuses it with a 403', async (t) => {
  const remote = await startTestServer({ PROFILER_ALLOWED_IPS: '10.0.0.0/8' });
  others.push(remote);
  const page = await get('/', {}, remote.port);
  t.is(page.status, 200);
  t.false(hasToolbar(page));
  const wdt = await get(`/_wdt/${tokenOf(page)}`, {}, remote.port);
  t.is(wdt.status, 403);
  t.is((await get(toolbarAssetPath('js'), {}, remote.port)).status, 403, 'nor the toolbar\'s files');
  t.true(wdt.body.includes('outside PROFILER_ALLOWED_IPS'));
  t.is(wdt.headers['x-debug-token'], undefined);
});

test('with debug off there is no toolbar and no /_wdt route', async (t) => {
  const prod = await startTestServer({ APP_ENV: 'prod', APP_DEBUG: '0', APP_SECRET: 'toolbar-test-secret-of-our-own' });
  others.push(prod);
  const page = await get('/', {}, prod.port);
  t.is(page.status, 200);
  t.false(hasToolbar(page));
  t.is((await get('/_wdt/abcdef', {}, prod.port)).status, 404);
});
