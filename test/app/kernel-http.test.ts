import test from 'ava';
import net from 'node:net';
import { httpRequest, rawRequest } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;
let origin: string;

test.before(async () => {
  server = await startTestServer({ MAX_BODY_SIZE: '1024' });
  origin = `http://127.0.0.1:${server.port}`;
});

test.after.always(async () => {
  await server?.close();
});

const get = (path: string, headers: Record<string, string> = {}) => httpRequest(server.port, { path, headers });

for (const path of ['/config.yaml', '/config.go']) {
  test(`GET ${path} is a 404 with the exact message, in HTML`, async (t) => {
    const res = await get(path);
    t.is(res.status, 404);
    t.regex(String(res.headers['content-type']), /^text\/html; charset=UTF-8/);
    const message = `No route found for &quot;GET ${origin}${path}&quot;`;
    t.true(res.body.startsWith(`<!-- ${message} (404 Not Found) -->`), res.body.slice(0, 200));
    t.true(res.body.includes(`<title>${message} (404 Not Found)</title>`));
    // The inner cause, with the trailing slash toggled, is on the debug page.
    t.true(res.body.includes(`No routes found for &quot;${path}/&quot;.`));
    t.is(res.headers['x-debug-exception'], encodeURIComponent(`No route found for "GET ${origin}${path}"`));
  });

  test(`GET ${path} is a 404 with the exact message, in JSON`, async (t) => {
    const res = await get(path, { Accept: 'application/json' });
    t.is(res.status, 404);
    t.is(res.headers['content-type'], 'application/json');
    const body = JSON.parse(res.body) as Record<string, unknown>;
    t.is(body['type'], 'https://tools.ietf.org/html/rfc2616#section-10');
    t.is(body['title'], 'An error occurred');
    t.is(body['status'], 404);
    t.is(body['detail'], `No route found for "GET ${origin}${path}"`);
    t.is(body['class'], 'NotFoundHttpError');
    t.true(Array.isArray(body['trace']));
    const previous = body['previous'] as { class: string; message: string }[];
    t.is(previous[0]?.message, `No routes found for "${path}/".`);
  });
}

test('a Referer adds the (from "…") suffix to the 404 message', async (t) => {
  const res = await get('/config.yaml', { Accept: 'application/json', Referer: 'http://example.com/start?x=1' });
  t.is(JSON.parse(res.body).detail, `No route found for "GET ${origin}/config.yaml" (from "http://example.com/start?x=1")`);
});

test('the 404 message leaves out the query string and keeps the raw path', async (t) => {
  const res = await get('/no%20route?secret=1', { Accept: 'application/json' });
  t.is(JSON.parse(res.body).detail, `No route found for "GET ${origin}/no%20route"`);
});

test('POST /hello/anna is a 405 with Allow: GET and the exact message', async (t) => {
  const res = await httpRequest(server.port, { method: 'POST', path: '/hello/anna', headers: { Accept: 'application/json', Referer: 'http://x/' } });
  t.is(res.status, 405);
  t.is(res.headers['allow'], 'GET');
  t.is(JSON.parse(res.body).detail, `No route found for "POST ${origin}/hello/anna": Method Not Allowed (Allow: GET)`);
});

test('HEAD /config.yaml is a 404 with headers and no body', async (t) => {
  const raw = await rawRequest(server.port, 'HEAD /config.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  t.regex(head, /^HTTP\/1\.1 404 Not Found/);
  t.regex(head, /X-Robots-Tag: noindex/i);
  t.regex(head, /Content-Length: [1-9]\d*/i);
  t.is(body, '');
});

test('HEAD on a GET route answers like GET, without the body', async (t) => {
  const res = await httpRequest(server.port, { method: 'HEAD', path: '/hello/anna' });
  t.is(res.status, 200);
  t.is(res.body, '');
});

test('GET /hello/anna/?q=1 redirects permanently to the absolute /hello/anna?q=1, as RedirectResponse', async (t) => {
  const res = await get('/hello/anna/?q=1', { Host: 'Loupe.Example:8080' });
  t.is(res.status, 301);
  t.is(res.headers['location'], 'http://loupe.example:8080/hello/anna?q=1');
  t.is(res.headers['cache-control'], undefined);
  t.regex(String(res.headers['content-type']), /^text\/html; charset=utf-8/i);
  t.true(res.body.includes('<title>Redirecting to http://loupe.example:8080/hello/anna?q=1</title>'));
});

test('/hello/anna greets in English and /fr/hello/anna in French', async (t) => {
  const en = await get('/hello/anna');
  t.is(en.status, 200);
  t.regex(en.body, /<h1>Hello anna!<\/h1>/);
  const fr = await get('/fr/hello/anna');
  t.regex(fr.body, /<h1>Bonjour anna!<\/h1>/);
  t.is(fr.headers['content-language'], 'fr');
  const de = await get('/hello/anna', { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' });
  t.regex(de.body, /Hallo anna!/);
  t.is((await get('/es/hello/anna')).status, 404);
});

test('every response carries X-Robots-Tag: noindex and the default cache directives', async (t) => {
  for (const path of ['/', '/hello/anna', '/config.yaml', '/boom']) {
    const res = await get(path);
    t.is(res.headers['x-robots-tag'], 'noindex', path);
    t.is(res.headers['cache-control'], 'no-cache, private', path);
  }
});

test('GET / lists the routes', async (t) => {
  const res = await get('/');
  t.is(res.status, 200);
  t.regex(res.body, /Welcome to Loupe/);
  t.regex(res.body, /\/\{_locale\}\/hello\/\{name\}/);
});

test('a throwing or rejecting controller is a 500 and the server keeps serving', async (t) => {
  for (const path of ['/boom', '/boom/async']) {
    const res = await get(path, { Accept: 'application/json' });
    t.is(res.status, 500, path);
    const body = JSON.parse(res.body) as { detail: string; class: string };
    t.regex(body.detail, /Boom!/);
    t.is(body.class, 'Error');
  }
  t.is((await get('/hello/anna')).status, 200);
});

test('POST /api/echo echoes JSON; malformed JSON is a 400 with a clear message', async (t) => {
  const ok = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'Content-Type': 'application/json' }, body: '{"a":[1,2]}' });
  t.is(ok.status, 200);
  t.deepEqual(JSON.parse(ok.body), { echo: { a: [1, 2] } });
  const bad = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: '{"a":' });
  t.is(bad.status, 400);
  t.is(JSON.parse(bad.body).detail, 'Could not decode request body: malformed JSON at byte 5 (the end of the body).');
});

/** The stored profile JSON of `token`, once the writer has stored it. */
async function storedProfile(token: unknown): Promise<string> {
  const profiler = server.profiler;
  if (typeof token !== 'string' || profiler === null) throw new Error(`No profile to wait for (token ${String(token)}).`);
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await profiler.writer.whenIdle()) {
    const found = await profiler.storage.read(token);
    if (found.kind === 'found') return found.json;
  }
  throw new Error(`Profile ${token} was not stored within 5 s.`);
}

test('a malformed JSON body is never quoted: the message gives a byte offset, in the answer, X-Debug-Exception and the profile', async (t) => {
  const body = '{"username":"ada","password":hunter2SEC"}';
  const offset = body.indexOf('hunter2SEC');
  for (const path of ['/api/echo', '/login']) {
    const res = await httpRequest(server.port, { method: 'POST', path, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body });
    t.is(res.status, 400, path);
    const detail = path === '/login' ? 'Invalid JSON.' : `Could not decode request body: malformed JSON at byte ${offset}.`;
    t.is(JSON.parse(res.body).detail, detail);
    t.is(res.headers['x-debug-exception'], encodeURIComponent(detail));
    const profile = await storedProfile(res.headers['x-debug-token']);
    t.false(profile.includes('hunter2'), `${path}: the profile quotes the body`);
    // The login's previous error says where, in the same words as the echo's.
    t.true(profile.includes(`malformed JSON at byte ${offset}.`), path);
  }
});

test('JSON nested deeper than 128 levels is a 400 naming the limit; 128 levels are echoed', async (t) => {
  const deep = '['.repeat(500) + ']'.repeat(500);
  const res = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: deep });
  t.is(res.status, 400);
  t.is(JSON.parse(res.body).detail, 'Could not decode request body: JSON nested deeper than 128 levels at byte 128.');
  const limit = '['.repeat(128) + ']'.repeat(128);
  const ok = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'Content-Type': 'application/json' }, body: limit });
  t.is(ok.status, 200);
  t.is(ok.body, `{"echo":${limit}}`);
});

test('a body over the limit is a 413 and the server keeps serving', async (t) => {
  const res = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { Accept: 'application/json' }, body: 'x'.repeat(4096) });
  t.is(res.status, 413);
  t.is(JSON.parse(res.body).detail, 'Request body exceeds the limit of 1024 bytes.');
  t.is((await get('/hello/anna')).status, 200);
});

test('an invalid Host header is a 400 with Symfony\'s message', async (t) => {
  const raw = await rawRequest(server.port, 'GET /hello/anna HTTP/1.1\r\nHost: exa mple.com\r\nAccept: application/json\r\nConnection: close\r\n\r\n');
  t.regex(raw, /^HTTP\/1\.1 400 Bad Request/);
  t.true(raw.includes('"detail":"Invalid Host \\"exa mple.com\\"."'), raw);
});

test('1,000 clients disconnecting mid-request leave the server answering and no actor alive', async (t) => {
  const disconnectOne = (): Promise<void> =>
    new Promise((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.write('GET /slow?ms=200 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
        setTimeout(() => socket.destroy(), 20);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
  for (let batch = 0; batch < 10; batch++) await Promise.all(Array.from({ length: 100 }, disconnectOne));
  t.is((await get('/hello/anna')).status, 200);
  await server.whenIdle();
  t.is(server.activeRequests, 0);
});

test('JSON responses hex-escape <, >, &, \' and ", as Symfony\'s JsonResponse', async (t) => {
  const payload = { html: `<script>alert("x") && 'y'</script>` };
  const res = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(payload) });
  t.is(res.status, 200);
  t.is(res.body, '{"echo":{"html":"\\u003Cscript\\u003Ealert(\\u0022x\\u0022) \\u0026\\u0026 \\u0027y\\u0027\\u003C\\/script\\u003E"}}');
  t.deepEqual(JSON.parse(res.body), { echo: payload });
});

test('a POST may override its method with X-HTTP-Method-Override; _method in the body is not honoured; a bad override is a 400', async (t) => {
  const overridden = await httpRequest(server.port, { method: 'POST', path: '/hello/ada', headers: { 'X-HTTP-Method-Override': 'get' } });
  t.is(overridden.status, 200);
  t.regex(overridden.body, /Hello ada!/);
  const form = await httpRequest(server.port, { method: 'POST', path: '/hello/ada', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body: '_method=GET' });
  t.is(form.status, 405);
  const bad = await httpRequest(server.port, { method: 'POST', path: '/hello/ada', headers: { 'X-HTTP-Method-Override': 'a-b', Accept: 'application/json' } });
  t.is(bad.status, 400);
  t.is(JSON.parse(bad.body).detail, 'Invalid method override "A-B".');
  // Only a POST is overridden.
  t.is((await httpRequest(server.port, { method: 'PUT', path: '/hello/ada', headers: { 'X-HTTP-Method-Override': 'GET', Accept: 'application/json' } })).status, 405);
});

test('the 400 of an invalid Host still links its profile, by the bare path as Symfony does', async (t) => {
  const raw = await rawRequest(server.port, 'GET /hello/anna HTTP/1.1\r\nHost: exa mple.com\r\nConnection: close\r\n\r\n');
  t.regex(raw, /^HTTP\/1\.1 400 Bad Request/);
  t.regex(raw, /\r\nX-Debug-Token-Link: \/_profiler\/[0-9a-f]{6}\r\n/i);
});

test('paths are decoded before matching, as Symfony: %68 is h, an encoded slash is a slash', async (t) => {
  t.regex((await get('/%68ello/ada')).body, /Hello ada!/);
  const slash = await get('/hello/a%2Fb', { Accept: 'application/json' });
  t.is(slash.status, 404);
  t.is(JSON.parse(slash.body).detail, `No route found for "GET http://127.0.0.1:${server.port}/hello/a%2Fb"`);
  const trailing = await get('/hello/ada%2F', { Accept: 'application/json' });
  t.is(trailing.status, 404);
  t.is(JSON.parse(trailing.body).detail, `No route found for "GET http://127.0.0.1:${server.port}/hello/ada%2F"`);
});

test('a JSON response escapes / as \\/ and non-ASCII as \\uXXXX, as JsonResponse does', async (t) => {
  const body = JSON.stringify({ url: 'http://a.example/b', name: 'Zoë 😀' });
  const result = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json', accept: 'application/json' }, body });
  t.is(result.status, 200);
  t.is(result.body, '{"echo":{"url":"http:\\/\\/a.example\\/b","name":"Zo\\u00eb \\ud83d\\ude00"}}');
});

test('GET // and an encoded trailing slash are 404s with no Location, as Symfony\'s CompiledUrlMatcherTrait::match() tries no redirect for them', async (t) => {
  for (const target of ['//', '/boom%2F', '/hello/ada%2F']) {
    const raw = await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
    t.regex(raw, /^HTTP\/1\.1 404 /, target);
    t.false(/\r\nLocation:/i.test(raw), target);
  }
  // The same paths with a slash sent as a slash are still redirected.
  const raw = await rawRequest(server.port, `GET /boom/ HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
  t.regex(raw, /^HTTP\/1\.1 301 /);
  t.regex(raw, new RegExp(`\r\nLocation: http://127\\.0\\.0\\.1:${server.port}/boom\r\n`));
});
