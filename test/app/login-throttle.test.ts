import test from 'ava';
import { httpRequest } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer();
});

test.after.always(async () => {
  await server?.close();
});

const basic = (identifier: string, password: string): string => `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}`;

function admin(password: string): ReturnType<typeof httpRequest> {
  return httpRequest(server.port, { path: '/admin', headers: { accept: 'application/json', authorization: basic('admin', password) } });
}

test('after 5 wrong HTTP Basic passwords the client gets 429 with Retry-After, even with the right one; other pages still answer', async (t) => {
  for (let attempt = 1; attempt <= 5; attempt++) t.is((await admin(`wrong-${attempt}`)).status, 401, `attempt ${attempt}`);
  const refused = await admin('loupe');
  t.is(refused.status, 429);
  const retryAfter = Number(refused.headers['retry-after']);
  t.true(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${String(refused.headers['retry-after'])}`);
  t.regex(JSON.parse(refused.body).detail, /^Too many failed login attempts, please try again in 1 minute\.$/);
  t.is((await httpRequest(server.port, { path: '/hello/ada' })).status, 200);
  // Another user name from the same address has its own count.
  const other = await httpRequest(server.port, { path: '/admin', headers: { accept: 'application/json', authorization: basic('mallory', 'x') } });
  t.is(other.status, 401);
});

test('POST /login is throttled the same way: the 6th attempt for a user name is a 429', async (t) => {
  const login = (password: string): ReturnType<typeof httpRequest> =>
    httpRequest(server.port, { method: 'POST', path: '/login', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ username: 'Carol', password }) });
  for (let attempt = 1; attempt <= 5; attempt++) t.is((await login(`wrong-${attempt}`)).status, 401, `attempt ${attempt}`);
  const refused = await login('still-wrong');
  t.is(refused.status, 429);
  t.truthy(refused.headers['retry-after']);
});
