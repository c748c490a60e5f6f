import test from 'ava';
import { httpRequest, type HttpResult } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});

test.after.always(async () => {
  await server?.close();
});

const basic = (identifier: string, password: string): string => `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}`;
const JSON_ACCEPT = { accept: 'application/json' };

function setCookies(result: HttpResult): string[] {
  return result.headers['set-cookie'] ?? [];
}

function login(body: string, contentType: string): Promise<HttpResult> {
  return httpRequest(server.port, { method: 'POST', path: '/login', headers: { 'content-type': contentType, ...JSON_ACCEPT }, body });
}

test('GET /admin without credentials: the entry point answers 401 with the Basic challenge and an empty body, no error page', async (t) => {
  for (const headers of [JSON_ACCEPT, {}]) {
    const result = await httpRequest(server.port, { path: '/admin', headers });
    t.is(result.status, 401);
    t.is(result.headers['www-authenticate'], 'Basic realm="Loupe"');
    t.is(result.body, '');
    t.is(result.headers['x-debug-exception'], undefined);
    t.is(result.headers['x-previous-debug-token'], undefined, 'no error sub-request');
    t.regex(String(result.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  }
});

test('GET /admin with admin:loupe over HTTP Basic: 200 naming the user', async (t) => {
  for (let i = 0; i < 2; i++) {
    const result = await httpRequest(server.port, { path: '/admin', headers: { authorization: basic('admin', 'loupe') } });
    t.is(result.status, 200);
    t.like(JSON.parse(result.body), { user: 'admin', via: 'http_basic', roles: ['ROLE_ADMIN', 'ROLE_USER'] });
  }
});

test('GET /admin with wrong credentials: the entry point\'s 401, empty', async (t) => {
  for (const authorization of [basic('admin', 'wrong'), basic('nobody', 'loupe'), 'Basic not-base64!']) {
    const result = await httpRequest(server.port, { path: '/admin', headers: { authorization, ...JSON_ACCEPT } });
    t.is(result.status, 401, authorization);
    t.is(result.headers['www-authenticate'], 'Basic realm="Loupe"');
    t.is(result.body, '');
  }
});

test('open pages need no credentials; the profiler is outside the secured firewall', async (t) => {
  const hello = await httpRequest(server.port, { path: '/hello/anna' });
  t.is(hello.status, 200);
  // Wrong credentials are not even read on the dev firewall: whatever answers, it is no 401.
  const profiler = await httpRequest(server.port, { path: '/_profiler/latest', headers: { authorization: basic('admin', 'wrong') } });
  t.not(profiler.status, 401);
});

test('POST /login with remember_me sets a signed LOUPE_REMEMBERME cookie that later authenticates /admin', async (t) => {
  const result = await login(JSON.stringify({ username: 'admin', password: 'loupe', remember_me: true }), 'application/json');
  t.is(result.status, 200);
  t.deepEqual(JSON.parse(result.body), { user: 'admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], remember_me: true });
  const cookie = setCookies(result).find((line) => line.startsWith('LOUPE_REMEMBERME='));
  if (cookie === undefined) return t.fail('no LOUPE_REMEMBERME cookie');
  t.regex(cookie, new RegExp(`; Max-Age=${server.config.security.rememberMeLifetime}; .*; Path=/; HttpOnly; SameSite=Lax$`));

  const pair = cookie.split(';')[0] ?? '';
  const admin = await httpRequest(server.port, { path: '/admin', headers: { cookie: `other=x; ${pair}` } });
  t.is(admin.status, 200);
  t.like(JSON.parse(admin.body), { user: 'admin', via: 'remember_me' });
  t.deepEqual(setCookies(admin), []);
});

test('a tampered remember-me cookie is refused (401) and cleared', async (t) => {
  const result = await login(JSON.stringify({ username: 'admin', password: 'loupe', remember_me: true }), 'application/json');
  const pair = setCookies(result).find((line) => line.startsWith('LOUPE_REMEMBERME='))?.split(';')[0] ?? '';
  const [encoded = '', signature = ''] = pair.slice('LOUPE_REMEMBERME='.length).split('.');
  const payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { u: string; e: number };
  const forged = Buffer.from(JSON.stringify({ ...payload, e: payload.e + 86400 })).toString('base64url');
  const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
  for (const value of [`${forged}.${signature}`, `${encoded}.${flipped}`, 'garbage']) {
    const admin = await httpRequest(server.port, { path: '/admin', headers: { cookie: `LOUPE_REMEMBERME=${value}`, ...JSON_ACCEPT } });
    t.is(admin.status, 401, value);
    t.is(admin.headers['www-authenticate'], 'Basic realm="Loupe"');
    t.true(setCookies(admin).some((line) => line.startsWith('LOUPE_REMEMBERME=; Max-Age=0')), 'the cookie is cleared');
  }
});

test('POST /login without remember_me sets no cookie; form fields work too', async (t) => {
  const json = await login(JSON.stringify({ username: 'admin', password: 'loupe' }), 'application/json');
  t.is(json.status, 200);
  t.deepEqual(setCookies(json), []);
  const form = await login('_username=admin&_password=loupe&_remember_me=on', 'application/x-www-form-urlencoded');
  t.is(form.status, 200);
  t.like(JSON.parse(form.body), { user: 'admin', remember_me: true });
  t.true(setCookies(form).some((line) => line.startsWith('LOUPE_REMEMBERME=')));
});

test('POST /login with a wrong password: 401 {"error":"Invalid credentials."} as JsonLoginAuthenticator; malformed bodies: 400', async (t) => {
  const wrong = await login(JSON.stringify({ username: 'admin', password: 'nope', remember_me: true }), 'application/json');
  t.is(wrong.status, 401);
  t.is(wrong.body, '{"error":"Invalid credentials."}');
  t.regex(String(wrong.headers['content-type']), /^application\/json/);
  t.deepEqual(setCookies(wrong).filter((line) => line.startsWith('LOUPE_REMEMBERME=')), []);
  t.is((await login('{', 'application/json')).status, 400);
  t.is((await login(JSON.stringify({ username: 'admin' }), 'application/json')).status, 400);
  t.is((await login('admin:loupe', 'text/plain')).status, 400);
});

test('JSON nested 10,000 deep is a 400, not a stack overflow, on the echo and the login; the server keeps serving', async (t) => {
  const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
  const echoed = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json', ...JSON_ACCEPT }, body: deep });
  t.is(echoed.status, 400);
  t.is(JSON.parse(echoed.body).detail, `Could not decode request body: JSON nested deeper than 128 levels at byte ${128 * 5}.`);
  t.is(JSON.parse(echoed.body).class, 'BadRequestHttpError');
  const login = await httpRequest(server.port, { method: 'POST', path: '/login', headers: { 'content-type': 'application/json', ...JSON_ACCEPT }, body: deep.slice(0, 15 * 1024) });
  t.is(login.status, 400);
  t.is(JSON.parse(login.body).detail, 'Invalid JSON.');
  t.is((await httpRequest(server.port, { path: '/hello/anna' })).status, 200);
});

test('a login body over the login route\'s own limit (16 KiB) is a 413, after routing; the server-wide limit is higher', async (t) => {
  const big = JSON.stringify({ username: 'admin', password: 'x'.repeat(20 * 1024) });
  const result = await login(big, 'application/json');
  t.is(result.status, 413);
  t.is(JSON.parse(result.body).detail, 'Request body exceeds the limit of 16384 bytes.');
  const echoed = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'x'.repeat(20 * 1024) }) });
  t.is(echoed.status, 200);
});
