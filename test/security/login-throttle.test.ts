import test, { type ExecutionContext } from 'ava';
import { once } from 'node:events';
import net from 'node:net';
import Redis from 'ioredis';
import { LoupeError } from '../../src/errors/loupe-error';
import { LoginThrottle, normalizeIdentifier, type LoginThrottleDecision } from '../../src/security/login-throttle';
import { useTestRedis } from '../helpers/test-redis';

const redis = useTestRedis(test, 'loupe-test-login-throttle');
const IP = '203.0.113.7';

async function fail(throttle: LoginThrottle, times: number, identifier: string, ip = IP): Promise<void> {
  for (let i = 0; i < times; i++) await throttle.consume(ip, identifier);
}

function retryAfter(decision: LoginThrottleDecision): number | null {
  return decision.allowed ? null : decision.retryAfterSeconds;
}

/** Polls `condition` every 25 ms until it holds or `timeoutMs` have passed. */
async function eventually(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

/** A port on loopback where nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

test('five failures are allowed; then attempts are refused for at most the interval', async (t) => {
  const throttle = new LoginThrottle(redis.admin(), redis.prefix());
  for (let i = 0; i < 5; i++) {
    t.deepEqual(await throttle.check(IP, 'alice'), { allowed: true }, `refused after ${i} failures`);
    t.deepEqual(await throttle.consume(IP, 'alice'), { allowed: true }, `attempt ${i + 1} refused`);
  }
  const seconds = retryAfter(await throttle.check(IP, 'alice'));
  t.true(seconds !== null && seconds >= 1 && seconds <= 60, `retry after ${seconds}`);
  t.deepEqual(await throttle.check('198.51.100.1', 'alice'), { allowed: true }, 'another IP is not refused');
});

test('200 attempts at once: exactly the allowance is allowed, the rest refused', async (t) => {
  const throttle = new LoginThrottle(redis.admin(), redis.prefix());
  const decisions = await Promise.all(Array.from({ length: 200 }, () => throttle.consume(IP, 'alice')));
  t.is(decisions.filter((decision) => decision.allowed).length, 5);
});

test('one identifier from many addresses is refused at its own limit, five times the per-address one', async (t) => {
  const throttle = new LoginThrottle(redis.admin(), redis.prefix());
  for (let i = 0; i < 25; i++) t.true((await throttle.consume(`198.51.100.${i}`, 'alice')).allowed, `attempt ${i + 1}`);
  t.false((await throttle.consume('198.51.100.200', 'alice')).allowed, 'a 26th address got a guess');
  t.false((await throttle.check('198.51.100.201', 'Alice')).allowed);
  t.deepEqual(await throttle.check('198.51.100.201', 'bob'), { allowed: true }, 'another identifier is not refused');
});

test('check consumes nothing', async (t) => {
  const throttle = new LoginThrottle(redis.admin(), redis.prefix(), { maxAttempts: 2 });
  for (let i = 0; i < 10; i++) await throttle.check(IP, 'alice');
  await fail(throttle, 1, 'alice');
  t.deepEqual(await throttle.check(IP, 'alice'), { allowed: true });
});

test('an identifier is the same whatever its case or Unicode compatibility form', async (t) => {
  t.is(normalizeIdentifier('ＡＤＭＩＮ'), 'admin');
  const throttle = new LoginThrottle(redis.admin(), redis.prefix());
  await fail(throttle, 2, 'Admin');
  await fail(throttle, 2, 'ADMIN');
  await fail(throttle, 1, 'ＡＤＭＩＮ');
  t.false((await throttle.check(IP, 'admin')).allowed);
});

test('another user from the same IP is refused only at the IP-wide limit, five times the per-user one', async (t) => {
  const throttle = new LoginThrottle(redis.admin(), redis.prefix());
  await fail(throttle, 5, 'alice');
  t.false((await throttle.check(IP, 'alice')).allowed);
  t.deepEqual(await throttle.check(IP, 'bob'), { allowed: true });
  for (const user of ['carol', 'dave', 'erin']) await fail(throttle, 5, user);
  await fail(throttle, 4, 'frank');
  t.deepEqual(await throttle.check(IP, 'bob'), { allowed: true }, 'refused after 24 failures from the IP');
  await fail(throttle, 1, 'frank');
  t.false((await throttle.check(IP, 'bob')).allowed, 'allowed after 25 failures from the IP');
  t.deepEqual(await throttle.check('198.51.100.1', 'bob'), { allowed: true }, 'another IP is not refused');
});

test('a reset after a successful login clears the per-user count, gives its attempt back and keeps the IP-wide failures', async (t) => {
  const throttle = new LoginThrottle(redis.admin(), redis.prefix(), { maxAttempts: 2 });
  await fail(throttle, 1, 'alice');
  t.deepEqual(await throttle.consume(IP, 'alice'), { allowed: true });
  t.false((await throttle.check(IP, 'alice')).allowed);
  await throttle.reset(IP, 'Alice');
  t.deepEqual(await throttle.check(IP, 'alice'), { allowed: true });
  await fail(throttle, 8, 'bob');
  t.deepEqual(await throttle.check(IP, 'alice'), { allowed: true }, 'the successful attempt was counted against the IP');
  await fail(throttle, 1, 'bob');
  t.false((await throttle.check(IP, 'alice')).allowed, 'allowed after 10 failures from the IP');
});

test('two throttles on the same Redis share their counts', async (t) => {
  const prefix = redis.prefix();
  const first = new LoginThrottle(await redis.client('loupe-test-throttle-a'), prefix);
  const second = new LoginThrottle(await redis.client('loupe-test-throttle-b'), prefix);
  await fail(first, 3, 'alice');
  await fail(second, 2, 'alice');
  t.false((await first.check(IP, 'alice')).allowed);
  t.false((await second.check(IP, 'alice')).allowed);
  await second.reset(IP, 'alice');
  t.deepEqual(await first.check(IP, 'alice'), { allowed: true });
});

test('keys live under the prefix, expire with the interval and hold no user name', async (t) => {
  const prefix = redis.prefix();
  await fail(new LoginThrottle(redis.admin(), prefix), 1, 'alice');
  const keys = (await redis.admin().keys(`${prefix}*`)).sort();
  t.is(keys.length, 3);
  t.is(keys[0], `${prefix}login-throttle:ip-user:${IP}:2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90`);
  t.is(keys[1], `${prefix}login-throttle:ip:${IP}`);
  t.is(keys[2], `${prefix}login-throttle:user:2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90`);
  for (const key of keys) {
    const ttl = await redis.admin().ttl(key);
    t.true(ttl > 0 && ttl <= 60, `${key}: TTL ${ttl}`);
  }
});

test('failures are forgotten once the interval has passed', async (t) => {
  const throttle = new LoginThrottle(redis.admin(), redis.prefix(), { intervalSeconds: 1 });
  await fail(throttle, 5, 'alice');
  t.is(retryAfter(await throttle.check(IP, 'alice')), 1);
  t.true(await eventually(async () => (await throttle.check(IP, 'alice')).allowed, 5_000));
});

/** Five failures, a refusal, a reset and an allowed attempt, all without throwing. */
async function throttlesFromMemory(t: ExecutionContext, client: Redis): Promise<void> {
  const throttle = new LoginThrottle(client, redis.prefix(), { redisTimeoutMs: 100 });
  t.deepEqual(await throttle.check(IP, 'alice'), { allowed: true });
  await fail(throttle, 5, 'alice');
  const seconds = retryAfter(await throttle.check(IP, 'Alice'));
  t.true(seconds !== null && seconds >= 1 && seconds <= 60, `retry after ${seconds}`);
  await throttle.reset(IP, 'alice');
  t.deepEqual(await throttle.check(IP, 'alice'), { allowed: true });
}

test('with Redis unreachable the throttle answers from memory without waiting for it', async (t) => {
  t.timeout(5_000, 'the throttle waited for a Redis that is not there');
  // No retry limit: a call that reached ioredis would wait in its offline queue for ever.
  const client = new Redis({ host: '127.0.0.1', port: await closedPort(), maxRetriesPerRequest: null, retryStrategy: () => 50 });
  client.on('error', () => undefined);
  t.teardown(() => client.disconnect());
  await throttlesFromMemory(t, client);
});

test('with a client that was disconnected the throttle answers from memory', async (t) => {
  t.timeout(5_000);
  const client = await redis.client('loupe-test-throttle-disconnected');
  client.disconnect();
  await throttlesFromMemory(t, client);
});

test('with a Redis that accepts connections but never answers, the throttle answers from memory after the timeout', async (t) => {
  t.timeout(5_000, 'the throttle waited for a Redis that does not answer');
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  // Without the ready check and CLIENT SETINFO, ioredis is `ready` as soon as the socket connects.
  const client = new Redis({ host: '127.0.0.1', port: address.port, enableReadyCheck: false, disableClientInfo: true, maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  t.teardown(() => {
    client.disconnect();
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  await once(client, 'ready');
  await throttlesFromMemory(t, client);
});

test('options are checked at construction', (t) => {
  for (const options of [{ maxAttempts: 0 }, { maxAttempts: 1.5 }, { maxAttemptsPerIdentifier: 0 }, { intervalSeconds: 0 }, { intervalSeconds: Number.NaN }, { redisTimeoutMs: -1 }]) {
    const error = t.throws(() => new LoginThrottle(redis.admin(), 'unused:', options), { instanceOf: LoupeError });
    t.is(error?.code, 'LOUPE_ERR_CONFIG_INVALID');
  }
});
