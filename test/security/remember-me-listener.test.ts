import test from 'ava';
import { LoupeResponse } from '../../src/http/response';
import { DEMO_FIREWALLS } from '../../demo/firewalls';
import { type AuthenticatedUser } from '../../src/http/session';
import { type Exchange } from '../../src/kernel/exchange';
import { KernelAttributes } from '../../src/kernel/kernel-attributes';
import { type KernelPhase } from '../../src/kernel/kernel-events';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { createRememberMeListener } from '../../src/security/remember-me-listener';
import { FirewallMap } from '../../src/security/firewall-map';
import { hashPasswordSync } from '../../src/security/password-hasher';
import { RememberMeSigner } from '../../src/security/remember-me-signer';
import { SecurityAttributes } from '../../src/security/security-attributes';
import { InMemoryUserProvider, type UserProvider } from '../../src/security/user-provider';
import { exchangeFor } from '../helpers/request-data';
import { runPhase, runPhaseSync } from '../helpers/run-phase';

const SECRET = 'test-secret';
const NOW_MS = 1_800_000_000_000;
const admin = { identifier: 'admin', passwordHash: hashPasswordSync('loupe', { N: 1024, r: 8, p: 1 }), roles: ['ROLE_ADMIN'] };
const users = new InMemoryUserProvider([admin]);
let clock = NOW_MS;
const listener = createRememberMeListener({ secret: SECRET, lifetime: 3600, cookieName: 'LOUPE_REMEMBERME', users, firewalls: new FirewallMap(DEMO_FIREWALLS), now: () => clock });
const registry = new ListenerRegistry([listener]);

/** An exchange for a GET of `path` whose Host header carries no port, with `headers` added. */
const get = (path: string, headers: Record<string, string> = {}): Exchange => exchangeFor({ path, headers: { host: '127.0.0.1', ...headers } });

/** Runs the listener's `phase` handler; it must stay synchronous. */
function run(phase: KernelPhase, exchange: Exchange): void {
  runPhaseSync(listener, phase, exchange);
}

const userOf = (exchange: Exchange): AuthenticatedUser | null => exchange.attributes.get(KernelAttributes.USER) ?? null;

const validCookie = (expiresAt = NOW_MS / 1000 + 60): string =>
  `LOUPE_REMEMBERME=${new RememberMeSigner(SECRET).sign({ u: 'admin', e: expiresAt }, admin.passwordHash)}`;

test('runs at kernel.request 9 (before the firewall) and kernel.response -900 (before the session)', (t) => {
  t.deepEqual(registry.for('kernel.request').map((l) => [l.name, l.priority]), [['RememberMeListener', 9]]);
  t.deepEqual(registry.for('kernel.response').map((l) => l.priority), [-900]);
});

test('a valid cookie authenticates the user via remember_me', (t) => {
  clock = NOW_MS;
  const exchange = get('/admin', { cookie: validCookie() });
  run('kernel.request', exchange);
  t.deepEqual(userOf(exchange), { identifier: 'admin', roles: ['ROLE_ADMIN'], via: 'remember_me' });
  exchange.response = new LoupeResponse('ok');
  run('kernel.response', exchange);
  t.false(exchange.response.headers.has('Set-Cookie'));
});

test('a tampered cookie is ignored and cleared on the response', (t) => {
  clock = NOW_MS;
  const cookie = validCookie().replace(/\.(.)/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
  const exchange = get('/admin', { cookie });
  run('kernel.request', exchange);
  t.is(userOf(exchange), null);
  t.true(exchange.attributes.get(SecurityAttributes.REMEMBER_ME_CLEAR));
  exchange.response = new LoupeResponse('denied', 401);
  run('kernel.response', exchange);
  t.regex(exchange.response.headers.get('Set-Cookie') ?? '', /^LOUPE_REMEMBERME=; Max-Age=0; .*HttpOnly; SameSite=Lax$/);
});

test('an expired cookie is ignored and cleared', (t) => {
  const cookie = validCookie(NOW_MS / 1000 + 60);
  clock = NOW_MS + 61_000;
  const exchange = get('/admin', { cookie });
  run('kernel.request', exchange);
  t.is(userOf(exchange), null);
  t.true(exchange.attributes.get(SecurityAttributes.REMEMBER_ME_CLEAR));
});

test('the cookie is not read with an Authorization header, nor on the unsecured dev firewall', (t) => {
  clock = NOW_MS;
  const withBasic = get('/admin', { cookie: validCookie(), authorization: 'Basic eDp5' });
  run('kernel.request', withBasic);
  t.is(userOf(withBasic), null);
  const profiler = get('/_profiler/abc123', { cookie: validCookie() });
  run('kernel.request', profiler);
  t.is(userOf(profiler), null);
  t.false(profiler.attributes.has(SecurityAttributes.REMEMBER_ME_CLEAR));
});

test('a login that asked to be remembered gets a signed cookie for the lifetime', (t) => {
  clock = NOW_MS;
  const exchange = get('/login');
  exchange.attributes.set(SecurityAttributes.REMEMBER_ME_REQUESTED, 'admin');
  exchange.response = new LoupeResponse('{}');
  run('kernel.response', exchange);
  const setCookie = exchange.response.headers.get('Set-Cookie') ?? '';
  t.regex(setCookie, /^LOUPE_REMEMBERME=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; Max-Age=3600; Expires=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
  const value = /^LOUPE_REMEMBERME=([^;]+)/.exec(setCookie)?.[1] ?? '';
  const check = new RememberMeSigner(SECRET).check(value, NOW_MS / 1000, () => admin.passwordHash);
  t.deepEqual(check, { valid: true, payload: { u: 'admin', e: NOW_MS / 1000 + 3600 } });
});

test('sub-requests neither read nor write the cookie', (t) => {
  clock = NOW_MS;
  const main = get('/admin', { cookie: validCookie() });
  const sub = main.createErrorSubRequest(new Error('x'), { name: 'error', handle: () => null });
  run('kernel.request', sub);
  t.is(userOf(sub), null);
  sub.attributes.set(SecurityAttributes.REMEMBER_ME_REQUESTED, 'admin');
  sub.response = new LoupeResponse('');
  run('kernel.response', sub);
  t.false(sub.response.headers.has('Set-Cookie'));
});

test('with an asynchronous user provider the cookie is checked once the user is loaded, with the same outcomes', async (t) => {
  clock = NOW_MS;
  const asyncUsers: UserProvider = { loadUser: (identifier) => Promise.resolve(users.loadUser(identifier)) };
  const asyncListener = createRememberMeListener({ secret: SECRET, lifetime: 3600, cookieName: 'LOUPE_REMEMBERME', users: asyncUsers, firewalls: new FirewallMap(DEMO_FIREWALLS), now: () => clock });
  const valid = get('/admin', { cookie: validCookie() });
  t.throws(() => runPhaseSync(asyncListener, 'kernel.request', valid), { message: /returned a promise/ }, 'the provider is asynchronous: so is the check');
  await runPhase(asyncListener, 'kernel.request', valid);
  t.deepEqual(userOf(valid), { identifier: 'admin', roles: ['ROLE_ADMIN'], via: 'remember_me' });

  const tampered = get('/admin', { cookie: validCookie().replace(/\.(.)/, (_, c: string) => `.${c === 'A' ? 'B' : 'A'}`) });
  await runPhase(asyncListener, 'kernel.request', tampered);
  t.is(userOf(tampered), null);
  t.true(tampered.attributes.get(SecurityAttributes.REMEMBER_ME_CLEAR));

  const login = get('/login');
  login.attributes.set(SecurityAttributes.REMEMBER_ME_REQUESTED, 'admin');
  login.response = new LoupeResponse('{}');
  await runPhase(asyncListener, 'kernel.response', login);
  t.regex(login.response.headers.get('Set-Cookie') ?? '', /^LOUPE_REMEMBERME=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; Max-Age=3600; /);
});
