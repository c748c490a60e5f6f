import test, { type ExecutionContext } from 'ava';
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

function admin(password: string, port = server.port, localAddress = '127.0.0.1'): ReturnType<typeof httpRequest> {
  return httpRequest(port, { path: '/admin', localAddress, headers: { accept: 'application/json', authorization: basic('admin', password) } });
}

function jsonLogin(port: number, username: string, password: string, localAddress = '127.0.0.1'): ReturnType<typeof httpRequest> {
  const body = JSON.stringify({ username, password });
  return httpRequest(port, { method: 'POST', path: '/login', localAddress, headers: { 'content-type': 'application/json', accept: 'application/json' }, body });
}

/** A server of its own: the guesses below lock 127.0.0.1 out of every account on it for a minute. */
async function ownServer(t: ExecutionContext): Promise<TestServer> {
  const own = await startTestServer();
  t.teardown(() => own.close());
  return own;
}

function countStatuses(results: readonly HttpResult[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

for (const [name, guess] of [
  ['HTTP Basic', (port: number, i: number) => admin(`wrong-${i}`, port)],
  ['JSON login', (port: number, i: number) => jsonLogin(port, 'admin', `wrong-${i}`)],
] as const) {
  test(`200 parallel wrong ${name} passwords: at most 5 are checked (401), the others get 429`, async (t) => {
    const own = await ownServer(t);
    const counts = countStatuses(await Promise.all(Array.from({ length: 200 }, (_, i) => guess(own.port, i))));
    t.true((counts[401] ?? 0) <= 5, JSON.stringify(counts));
    t.is((counts[401] ?? 0) + (counts[429] ?? 0), 200, JSON.stringify(counts));
  });
}

test('a locked-out address gets 429 over HTTP Basic even with the right password another address has just used', async (t) => {
  const own = await ownServer(t);
  t.is((await admin('loupe', own.port, '127.0.0.2')).status, 200, 'the real user, from elsewhere');
  for (let attempt = 1; attempt <= 5; attempt++) t.is((await admin(`wrong-${attempt}`, own.port)).status, 401, `attempt ${attempt}`);
  t.is((await admin('loupe', own.port)).status, 429, 'the cache of verified credentials answered before the throttle');
  t.is((await jsonLogin(own.port, 'admin', 'loupe')).status, 429);
  t.is((await admin('loupe', own.port, '127.0.0.2')).status, 200, 'the real user is not locked out');
});

test('one user name guessed from 30 addresses gets at most 25 checks in all', async (t) => {
  const own = await ownServer(t);
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => jsonLogin(own.port, 'admin', `wrong-${i}`, `127.0.0.${i + 10}`)));
  const counts = countStatuses(results);
  t.true((counts[401] ?? 0) <= 25, JSON.stringify(counts));
  t.is(counts[429], 5, JSON.stringify(counts));
});

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
