import test from 'ava';
import type Redis from 'ioredis';
import { ServiceUnavailableHttpError } from '../../src/errors/http-error';
import { LoupeError } from '../../src/errors/loupe-error';
import { LoupeResponse } from '../../src/http/response';
import { type Session } from '../../src/http/session';
import { type Exchange } from '../../src/kernel/exchange';
import { KernelAttributes } from '../../src/kernel/kernel-attributes';
import { type KernelPhase } from '../../src/kernel/kernel-events';
import { type Listener } from '../../src/kernel/listener';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { createSessionListener, NO_AUTO_CACHE_CONTROL_HEADER } from '../../src/session/session-listener';
import { RedisSessionStorage } from '../../src/session/redis-session-storage';
import { createSessionId } from '../../src/session/session-id';
import { type SessionData, type SessionStorage } from '../../src/session/session-storage';
import { exchangeFor } from '../helpers/request-data';
import { runPhase, runPhaseSync } from '../helpers/run-phase';
import { cleanUpTestRedis, connectTestRedis, testKeyPrefix } from '../helpers/test-redis';

const prefix = testKeyPrefix();
let redis: Redis;
let listener: Listener;
let registry: ListenerRegistry;
let storage: RedisSessionStorage;

test.before(async () => {
  redis = await connectTestRedis();
  storage = new RedisSessionStorage(redis, { prefix, lifetime: 120 });
  listener = createSessionListener({ storage, cookieName: 'LOUPESESSID', lifetime: 0 });
  registry = new ListenerRegistry([listener]);
});

test.after.always(() => cleanUpTestRedis(redis, prefix));

/** An exchange for GET /session whose Host header carries no port, sending `cookie` when given. */
const sessionExchange = (cookie?: string): Exchange =>
  exchangeFor({ path: '/session', headers: cookie === undefined ? { host: '127.0.0.1' } : { host: '127.0.0.1', cookie } });

/** Runs the session listener's `phase` handlers as the kernel does, waiting for the save at kernel.response. */
function run(phase: KernelPhase, exchange: Exchange): Promise<void> {
  return runPhase(listener, phase, exchange);
}

const sessionOf = (exchange: Exchange): Session | null => exchange.attributes.get(KernelAttributes.SESSION) ?? null;

test('subscribes where Symfony does: request 128, response -1000, finish_request 0', (t) => {
  t.deepEqual(registry.for('kernel.request').map((l) => [l.name, l.priority]), [['SessionListener', 128]]);
  t.deepEqual(registry.for('kernel.response').map((l) => l.priority), [-1000]);
  t.deepEqual(registry.for('kernel.finish_request').map((l) => l.priority), [0]);
});

test('a request that never touches its session gets no cookie and keeps its cache directives', (t) => {
  const exchange = sessionExchange();
  runPhaseSync(listener, 'kernel.request', exchange);
  t.truthy(sessionOf(exchange));
  t.false(sessionOf(exchange)?.isStarted);
  exchange.response = new LoupeResponse('ok', 200, { 'Cache-Control': 'no-cache, private' });
  // Nothing to save: kernel.response stays synchronous and the phase never waits.
  runPhaseSync(listener, 'kernel.response', exchange);
  t.false(exchange.response.headers.has('Set-Cookie'));
  t.is(exchange.response.headers.get('Cache-Control'), 'no-cache, private');
  t.false(exchange.response.headers.has('Expires'));
});

test('a session started but never read or written counts as unused: no cookie, cache directives kept', async (t) => {
  const exchange = sessionExchange();
  await run('kernel.request', exchange);
  await sessionOf(exchange)?.start();
  t.true(sessionOf(exchange)?.isStarted);
  exchange.response = new LoupeResponse('ok', 200, { 'Cache-Control': 'no-cache, private' });
  await run('kernel.response', exchange);
  t.false(exchange.response.headers.has('Set-Cookie'));
  t.is(exchange.response.headers.get('Cache-Control'), 'no-cache, private');
});

test('a new session that was written is saved, gets a cookie and makes the response private', async (t) => {
  const exchange = sessionExchange();
  await run('kernel.request', exchange);
  const session = sessionOf(exchange);
  if (session === null) return t.fail('no session');
  await session.start();
  session.set('count', 1);
  exchange.response = new LoupeResponse('ok', 200, { 'Cache-Control': 'no-cache, private' });
  await run('kernel.response', exchange);
  const { headers } = exchange.response;
  t.is(headers.get('Set-Cookie'), `LOUPESESSID=${session.id}; Path=/; HttpOnly; SameSite=Lax`);
  t.is(headers.get('Cache-Control'), 'max-age=0, must-revalidate, private');
  t.truthy(headers.get('Expires'));
  // kernel.response waited for the write: it is in Redis before the response is sent.
  t.is(await redis.get(`${prefix}session:${session.id}`), '{"count":1}');
});

test('an existing session keeps its cookie: no Set-Cookie, but still private', async (t) => {
  const id = createSessionId();
  await storage.write(id, { count: 4 });
  const exchange = sessionExchange(`other=1; LOUPESESSID=${id}`);
  await run('kernel.request', exchange);
  await sessionOf(exchange)?.start();
  t.is(sessionOf(exchange)?.get('count'), 4);
  exchange.response = new LoupeResponse('ok');
  await run('kernel.response', exchange);
  t.false(exchange.response.headers.has('Set-Cookie'));
  t.is(exchange.response.headers.get('Cache-Control'), 'max-age=0, must-revalidate, private');
});

test('the internal no-auto-cache-control header is never sent and keeps the directives', async (t) => {
  const exchange = sessionExchange();
  await run('kernel.request', exchange);
  await sessionOf(exchange)?.start();
  sessionOf(exchange)?.set('a', 1);
  exchange.response = new LoupeResponse('ok', 200, { 'Cache-Control': 'public, max-age=60', [NO_AUTO_CACHE_CONTROL_HEADER]: '1' });
  await run('kernel.response', exchange);
  t.false(exchange.response.headers.has(NO_AUTO_CACHE_CONTROL_HEADER));
  t.is(exchange.response.headers.get('Cache-Control'), 'public, max-age=60');

  const untouched = sessionExchange();
  await run('kernel.request', untouched);
  untouched.response = new LoupeResponse('ok', 200, { [NO_AUTO_CACHE_CONTROL_HEADER]: '1' });
  await run('kernel.response', untouched);
  t.false(untouched.response.headers.has(NO_AUTO_CACHE_CONTROL_HEADER));
});

test('a session emptied by the request is deleted and its cookie cleared', async (t) => {
  const id = createSessionId();
  await storage.write(id, { a: 1 });
  const exchange = sessionExchange(`LOUPESESSID=${id}`);
  await run('kernel.request', exchange);
  await sessionOf(exchange)?.start();
  sessionOf(exchange)?.remove('a');
  exchange.response = new LoupeResponse('ok');
  await run('kernel.response', exchange);
  t.regex(exchange.response.headers.get('Set-Cookie') ?? '', /^LOUPESESSID=; Max-Age=0; /);
  t.is(await redis.exists(`${prefix}session:${id}`), 0);
});

test('sub-requests get no session, and lose any at finish_request', async (t) => {
  const main = sessionExchange();
  await run('kernel.request', main);
  const sub = main.createErrorSubRequest(new Error('x'), { name: 'error', handle: () => null });
  await run('kernel.request', sub);
  t.is(sessionOf(sub), null);
  const mainSession = sessionOf(main);
  if (mainSession === null) return t.fail('no main session');
  sub.attributes.set(KernelAttributes.SESSION, mainSession);
  sub.response = new LoupeResponse('error', 500);
  await run('kernel.response', sub);
  t.false(sub.response.headers.has('Set-Cookie'));
  await run('kernel.finish_request', sub);
  t.is(sessionOf(sub), null);
  await run('kernel.finish_request', main);
  t.truthy(sessionOf(main), 'the main request keeps its session for the profiler');
});

/** A storage kept in memory whose `write` rejects, counting the attempts. */
class UnwritableStorage implements SessionStorage {
  readonly cause = new LoupeError('LOUPE_ERR_SESSION_STORAGE', 'Could not write session in Redis: connection lost');
  writes = 0;
  read(): Promise<SessionData | null> {
    return Promise.resolve(null);
  }
  write(): Promise<void> {
    this.writes++;
    return Promise.reject(this.cause);
  }
  touch(): Promise<void> {
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    return Promise.resolve();
  }
}

test('a session whose write rejects makes kernel.response fail with a 503, never a silent 200', async (t) => {
  const unwritable = new UnwritableStorage();
  const failing = createSessionListener({ storage: unwritable, cookieName: 'S', lifetime: 0 });
  const exchange = sessionExchange();
  await runPhase(failing, 'kernel.request', exchange);
  await sessionOf(exchange)?.start();
  sessionOf(exchange)?.set('a', 1);
  exchange.response = new LoupeResponse('ok');
  const error = await t.throwsAsync(runPhase(failing, 'kernel.response', exchange), { instanceOf: ServiceUnavailableHttpError });
  t.is(error?.code, 'LOUPE_ERR_SESSION_NOT_SAVED');
  t.is(error?.statusCode, 503);
  t.is(error?.cause, unwritable.cause);
  t.is(unwritable.writes, 1);
  // The error page goes through kernel.response again: the save is not attempted a second time.
  exchange.response = new LoupeResponse('error page', 503);
  await t.notThrowsAsync(runPhase(failing, 'kernel.response', exchange));
  t.is(unwritable.writes, 1);
});

test('a Redis that went away while the request ran also ends in the 503', async (t) => {
  const closed = await connectTestRedis('loupe-test-closed');
  const broken = new RedisSessionStorage(closed, { prefix, lifetime: 120 });
  const failing = createSessionListener({ storage: broken, cookieName: 'S', lifetime: 0 });
  const exchange = sessionExchange();
  await runPhase(failing, 'kernel.request', exchange);
  await sessionOf(exchange)?.start();
  sessionOf(exchange)?.set('a', 1);
  await closed.quit();
  exchange.response = new LoupeResponse('ok');
  const error = await t.throwsAsync(runPhase(failing, 'kernel.response', exchange), { instanceOf: ServiceUnavailableHttpError });
  t.is(error?.code, 'LOUPE_ERR_SESSION_NOT_SAVED');
  t.like(error?.cause, { code: 'LOUPE_ERR_SESSION_STORAGE_UNAVAILABLE' });
});
