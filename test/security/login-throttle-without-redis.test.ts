import test from 'ava';
import { LoginThrottle, type LoginThrottleDecision } from '../../src/security/login-throttle';

/*
 * The login throttle of an application without Redis (REDIS_URL empty): the same limits, counted
 * in the process's memory. No Redis is needed to run this file.
 */

const IP = '203.0.113.7';

async function fail(throttle: LoginThrottle, times: number, identifier: string, ip = IP): Promise<void> {
  for (let i = 0; i < times; i++) await throttle.consume(ip, identifier);
}

const allowed: LoginThrottleDecision = { allowed: true };

test('without Redis five failures are allowed, then attempts are refused for at most the interval', async (t) => {
  const throttle = new LoginThrottle(null, 'loupe:');
  for (let i = 0; i < 5; i++) t.deepEqual(await throttle.consume(IP, 'alice'), allowed, `attempt ${i + 1} refused`);
  const refused = await throttle.consume(IP, 'alice');
  t.false(refused.allowed);
  if (!refused.allowed) t.true(refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= 60, `retry after ${refused.retryAfterSeconds}`);
  t.false((await throttle.check(IP, 'Alice')).allowed);
  t.deepEqual(await throttle.check('198.51.100.1', 'alice'), allowed, 'another IP is not refused');
});

test('without Redis 200 attempts at once: exactly the allowance is allowed', async (t) => {
  const throttle = new LoginThrottle(null, 'loupe:');
  const decisions = await Promise.all(Array.from({ length: 200 }, () => throttle.consume(IP, 'alice')));
  t.is(decisions.filter((decision) => decision.allowed).length, 5);
});

test('without Redis the IP-wide and identifier-wide limits are five times the per-user one', async (t) => {
  const throttle = new LoginThrottle(null, 'loupe:');
  for (const user of ['carol', 'dave', 'erin', 'frank']) await fail(throttle, 5, user);
  await fail(throttle, 4, 'gina');
  t.deepEqual(await throttle.check(IP, 'bob'), allowed, 'refused after 24 failures from the IP');
  await fail(throttle, 1, 'gina');
  t.false((await throttle.check(IP, 'bob')).allowed, 'allowed after 25 failures from the IP');
  for (let i = 0; i < 25; i++) await throttle.consume(`198.51.100.${i}`, 'zoe');
  t.false((await throttle.check('198.51.100.200', 'zoe')).allowed, 'a 26th address got a guess at one account');
});

test('without Redis a reset after a successful login clears the per-user count and keeps the IP-wide failures', async (t) => {
  const throttle = new LoginThrottle(null, 'loupe:', { maxAttempts: 2 });
  await fail(throttle, 2, 'alice');
  t.false((await throttle.check(IP, 'alice')).allowed);
  await throttle.reset(IP, 'Alice');
  t.deepEqual(await throttle.check(IP, 'alice'), allowed);
  await fail(throttle, 9, 'bob');
  t.false((await throttle.check(IP, 'alice')).allowed, 'allowed after 10 failures from the IP (one given back by the reset)');
});
