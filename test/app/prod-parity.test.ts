import test from 'ava';
import { httpRequest } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

// The same Symfony behaviours with debug off (APP_ENV=prod): no profiler, no details in errors.
let server: TestServer;

test.before(async () => {
  server = await startTestServer({ APP_ENV: 'prod', APP_DEBUG: '0', APP_SECRET: 'prod-parity-test' });
});

test.after.always(async () => {
  await server?.close();
});

test('prod: JSON responses hex-escape <, >, &, \' and "', async (t) => {
  const res = await httpRequest(server.port, { method: 'POST', path: '/api/echo', headers: { 'Content-Type': 'application/json' }, body: '{"h":"<b>&\'\\""}' });
  t.is(res.status, 200);
  t.is(res.body, '{"echo":{"h":"\\u003Cb\\u003E\\u0026\\u0027\\u0022"}}');
  t.is(res.headers['x-debug-token'], undefined);
});

test('prod: X-HTTP-Method-Override is honoured on a POST; a bad one is a 400', async (t) => {
  t.is((await httpRequest(server.port, { method: 'POST', path: '/hello/ada', headers: { 'X-HTTP-Method-Override': 'GET' } })).status, 200);
  const bad = await httpRequest(server.port, { method: 'POST', path: '/hello/ada', headers: { 'X-HTTP-Method-Override': 'A-B', Accept: 'application/json' } });
  t.is(bad.status, 400);
  t.is(JSON.parse(bad.body).status, 400);
});

test('prod: trailing-slash redirects are absolute; paths are decoded before matching', async (t) => {
  const redirect = await httpRequest(server.port, { path: '/hello/ada/?q=1', headers: { Host: 'Loupe.Example' } });
  t.is(redirect.status, 301);
  t.is(redirect.headers['location'], 'http://loupe.example/hello/ada?q=1');
  t.is(redirect.headers['cache-control'], undefined);
  t.is((await httpRequest(server.port, { path: '/%68ello/ada' })).status, 200);
  t.is((await httpRequest(server.port, { path: '/hello/a%2Fb' })).status, 404);
});

test('prod: the security entry point answers 401 with the challenge and an empty body', async (t) => {
  const anonymous = await httpRequest(server.port, { path: '/admin', headers: { Accept: 'application/json' } });
  t.is(anonymous.status, 401);
  t.is(anonymous.headers['www-authenticate'], 'Basic realm="Loupe"');
  t.is(anonymous.body, '');
  const login = await httpRequest(server.port, { method: 'POST', path: '/login', headers: { 'Content-Type': 'application/json' }, body: '{"username":"nobody","password":"x"}' });
  t.is(login.status, 401);
  t.is(login.body, '{"error":"Invalid credentials."}');
});
