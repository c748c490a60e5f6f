import test from 'ava';
import type Redis from 'ioredis';
import { Response } from '../../src/http/response';
import { type Exchange } from '../../src/kernel/exchange';
import { type KernelPhase } from '../../src/kernel/kernel-events';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { createSessionListener, NO_AUTO_CACHE_CONTROL_HEADER } from '../../src/session/session-listener';
import { RedisSessionStorage } from '../../src/session/redis-session-storage';
import { createSessionId } from '../../src/session/session-id';
import { exchangeFor } from '../helpers/request-data';
import { cleanUpTestRedis, connectTestRedis, testKeyPrefix } from '../helpers/test-redis';

const prefix = testKeyPrefix();
let redis: Redis;
let registry: ListenerRegistry;
let storage: RedisSessionStorage;
const errors: unknown[] = [];

test.before(async () => {
  redis = await connectTestRedis();
  storage = new RedisSessionStorage(redis, { prefix, lifetime: 120 });
  registry = new ListenerRegistry([createSessionListener({ storage, cookieName: 'LOUPESESSID', lifetime: 0, onError: (e) => errors.push(e) })]);
});

test.after.always(() => cleanUpTestRedis(redis, prefix));

/** An exchange for GET /session whose Host header carries no port, sending `cookie` when given. */
const sessionExchange = (cookie?: string): Exchange =>
  exchangeFor({ path: '/session', headers: cookie === undefined ? { host: '127.0.0.1' } : { host: '127.0.0.1', cookie } });

function run(phase: KernelPhase, exchange: Exchange): void {
  for (const listener of registry.for(phase)) listener.handle(exchange);
}

test('subscribes where Symfony does: request 128, response -1000, finish_request 0', (t) => {
  t.deepEqual(registry.for('kernel.request').map((l) => [l.name, l.priority]), [['SessionListener', 128]]);
  t.deepEqual(registry.for('kernel.response').map((l) => l.priority), [-1000]);
  t.deepEqual(registry.for('kernel.finish_request').map((l) => l.priority), [0]);
});

test('a request that never touches its session gets no cookie and keeps its cache directives', (t) => {
  const exchange = sessionExchange();
  run('kernel.request', exchange);
  t.truthy(exchange.session);
  t.false(exchange.session?.isStarted);
  exchange.response = new Response('ok', 200, { 'Cache-Control': 'no-cache, private' });
  run('kernel.response', exchange);
  t.false(exchange.response.headers.has('Set-Cookie'));
  t.is(exchange.response.headers.get('Cache-Control'), 'no-cache, private');
  t.false(exchange.response.headers.has('Expires'));
});

test('a session started but never read or written counts as unused: no cookie, cache directives kept', async (t) => {
  const exchange = sessionExchange();
  run('kernel.request', exchange);
  await exchange.session?.start();
  t.true(exchange.session?.isStarted);
  exchange.response = new Response('ok', 200, { 'Cache-Control': 'no-cache, private' });
  run('kernel.response', exchange);
  t.false(exchange.response.headers.has('Set-Cookie'));
  t.is(exchange.response.headers.get('Cache-Control'), 'no-cache, private');
});

test('a new session that was written is saved, gets a cookie and makes the response private', async (t) => {
  const exchange = sessionExchange();
  run('kernel.request', exchange);
  const session = exchange.session;
  if (session === null) return t.fail('no session');
  await session.start();
  session.set('count', 1);
  exchange.response = new Response('ok', 200, { 'Cache-Control': 'no-cache, private' });
  run('kernel.response', exchange);
  const { headers } = exchange.response;
  t.is(headers.get('Set-Cookie'), `LOUPESESSID=${session.id}; Path=/; HttpOnly; SameSite=Lax`);
  t.is(headers.get('Cache-Control'), 'max-age=0, must-revalidate, private');
  t.truthy(headers.get('Expires'));
  // The write was issued on this connection, so this read comes after it.
  t.is(await redis.get(`${prefix}session:${session.id}`), '{"count":1}');
});

test('an existing session keeps its cookie: no Set-Cookie, but still private', async (t) => {
  const id = createSessionId();
  await storage.write(id, { count: 4 });
  const exchange = sessionExchange(`other=1; LOUPESESSID=${id}`);
  run('kernel.request', exchange);
  await exchange.session?.start();
  t.is(exchange.session?.get('count'), 4);
  exchange.response = new Response('ok');
  run('kernel.response', exchange);
  t.false(exchange.response.headers.has('Set-Cookie'));
  t.is(exchange.response.headers.get('Cache-Control'), 'max-age=0, must-revalidate, private');
});

test('the internal no-auto-cache-control header is never sent and keeps the directives', async (t) => {
  const exchange = sessionExchange();
  run('kernel.request', exchange);
  await exchange.session?.start();
  exchange.session?.set('a', 1);
  exchange.response = new Response('ok', 200, { 'Cache-Control': 'public, max-age=60', [NO_AUTO_CACHE_CONTROL_HEADER]: '1' });
  run('kernel.response', exchange);
  t.false(exchange.response.headers.has(NO_AUTO_CACHE_CONTROL_HEADER));
  t.is(exchange.response.headers.get('Cache-Control'), 'public, max-age=60');

  const untouched = sessionExchange();
  run('kernel.request', untouched);
  untouched.response = new Response('ok', 200, { [NO_AUTO_CACHE_CONTROL_HEADER]: '1' });
  run('kernel.response', untouched);
  t.false(untouched.response.headers.has(NO_AUTO_CACHE_CONTROL_HEADER));
});

test('a session emptied by the request is deleted and its cookie cleared', async (t) => {
  const id = createSessionId();
  await storage.write(id, { a: 1 });
  const exchange = sessionExchange(`LOUPESESSID=${id}`);
  run('kernel.request', exchange);
  await exchange.session?.start();
  exchange.session?.remove('a');
  exchange.response = new Response('ok');
  run('kernel.response', exchange);
  t.regex(exchange.response.headers.get('Set-Cookie') ?? '', /^LOUPESESSID=; Max-Age=0; /);
  t.is(await redis.exists(`${prefix}session:${id}`), 0);
});

test('sub-requests get no session, and lose any at finish_request', (t) => {
  const main = sessionExchange();
  run('kernel.request', main);
  const sub = main.createErrorSubRequest(new Error('x'), { name: 'error', handle: () => null });
  run('kernel.request', sub);
  t.is(sub.session, null);
  sub.session = main.session;
  sub.response = new Response('error', 500);
  run('kernel.response', sub);
  t.false(sub.response.headers.has('Set-Cookie'));
  run('kernel.finish_request', sub);
  t.is(sub.session, null);
  run('kernel.finish_request', main);
  t.truthy(main.session, 'the main request keeps its session for the profiler');
});

test('a failed save is reported to onError, not thrown into the request', async (t) => {
  const closed = await connectTestRedis('loupe-test-closed');
  const broken = new RedisSessionStorage(closed, { prefix, lifetime: 120 });
  const reported: unknown[] = [];
  const listeners = new ListenerRegistry([createSessionListener({ storage: broken, cookieName: 'S', lifetime: 0, onError: (e) => reported.push(e) })]);
  const exchange = sessionExchange();
  for (const l of listeners.for('kernel.request')) l.handle(exchange);
  await exchange.session?.start();
  exchange.session?.set('a', 1);
  await closed.quit();
  exchange.response = new Response('ok');
  t.notThrows(() => {
    for (const l of listeners.for('kernel.response')) l.handle(exchange);
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.is(reported.length, 1);
  t.like(reported[0], { code: 'LOUPE_ERR_SESSION_STORAGE' });
  t.is(errors.length, 0);
});
