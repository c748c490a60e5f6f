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

test('GET /session counts 1 then 2 with the returned LOUPESESSID cookie, never cacheable', async (t) => {
  const first = await httpRequest(server.port, { path: '/session' });
  t.is(first.status, 200);
  t.deepEqual(JSON.parse(first.body), { count: 1 });
  t.is(first.headers['cache-control'], 'max-age=0, must-revalidate, private');
  t.truthy(first.headers['expires']);
  const cookie = (first.headers['set-cookie'] ?? []).find((line) => line.startsWith('LOUPESESSID='));
  if (cookie === undefined) return t.fail('no LOUPESESSID cookie');
  t.regex(cookie, /^LOUPESESSID=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Lax$/);
  const pair = cookie.split(';')[0] ?? '';

  const second = await httpRequest(server.port, { path: '/session', headers: { cookie: pair } });
  t.deepEqual(JSON.parse(second.body), { count: 2 });
  t.is(second.headers['cache-control'], 'max-age=0, must-revalidate, private');
  t.is(second.headers['set-cookie'], undefined, 'the id did not change: no new cookie');

  const id = pair.slice('LOUPESESSID='.length);
  const stored = await server.redis.get(`${server.config.redis.prefix}session:${id}`);
  t.deepEqual(JSON.parse(stored ?? 'null'), { count: 2 });
  const ttl = await server.redis.ttl(`${server.config.redis.prefix}session:${id}`);
  t.true(ttl > 0 && ttl <= server.config.session.lifetime, `TTL ${ttl}`);
});

test('an unknown session id is not adopted: a fresh session and cookie are issued', async (t) => {
  const chosen = 'a'.repeat(64);
  const result = await httpRequest(server.port, { path: '/session', headers: { cookie: `LOUPESESSID=${chosen}` } });
  t.deepEqual(JSON.parse(result.body), { count: 1 });
  const cookie = (result.headers['set-cookie'] ?? []).find((line) => line.startsWith('LOUPESESSID=')) ?? '';
  t.regex(cookie, /^LOUPESESSID=[0-9a-f]{64};/);
  t.false(cookie.startsWith(`LOUPESESSID=${chosen}`));
  t.is(await server.redis.exists(`${server.config.redis.prefix}session:${chosen}`), 0);
});

// Serial: the other tests create sessions, and this one counts them.
test.serial('a request that does not use the session gets no session cookie and nothing in Redis', async (t) => {
  const before = await server.redis.keys(`${server.config.redis.prefix}session:*`);
  const result = await httpRequest(server.port, { path: '/hello/anna' });
  t.is(result.status, 200);
  t.is(result.headers['set-cookie'], undefined);
  t.is(result.headers['cache-control'], 'no-cache, private');
  const missing = await httpRequest(server.port, { path: '/no-such-page' });
  t.is(missing.status, 404);
  t.is(missing.headers['set-cookie'], undefined);
  t.deepEqual((await server.redis.keys(`${server.config.redis.prefix}session:*`)).length, before.length);
});

test('sessions are stored under the server\'s own Redis prefix', async (t) => {
  const result = await httpRequest(server.port, { path: '/session' });
  const id = /LOUPESESSID=([0-9a-f]{64})/.exec(String(result.headers['set-cookie']))?.[1] ?? '';
  const keys = await server.redis.keys(`${server.config.redis.prefix}session:*`);
  t.true(server.config.redis.prefix.startsWith('loupe-test:'));
  t.true(keys.includes(`${server.config.redis.prefix}session:${id}`));
});
