import test from 'ava';
import { DEMO_FIREWALLS } from '../../demo/firewalls';
import { ForbiddenHttpError, UnauthorizedHttpError } from '../../src/errors/http-error';
import { type AuthenticatedUser } from '../../src/http/session';
import { createPhaseEvent } from '../../src/kernel/event/create-phase-event';
import { type Exchange } from '../../src/kernel/exchange';
import { KernelAttributes } from '../../src/kernel/kernel-attributes';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { createFirewallListener } from '../../src/security/firewall-listener';
import { CredentialsVerifier } from '../../src/security/credentials-verifier';
import { FirewallMap } from '../../src/security/firewall-map';
import { hashPasswordSync } from '../../src/security/password-hasher';
import { SecurityAttributes } from '../../src/security/security-attributes';
import { InMemoryUserProvider } from '../../src/security/user-provider';
import { exchangeFor } from '../helpers/request-data';
import { runPhase, runPhaseSync } from '../helpers/run-phase';

const CHEAP = { N: 1024, r: 8, p: 1 };
const users = new InMemoryUserProvider([
  { identifier: 'admin', passwordHash: hashPasswordSync('loupe', CHEAP), roles: ['ROLE_ADMIN', 'ROLE_USER'] },
  { identifier: 'anna', passwordHash: hashPasswordSync('anna-pw', CHEAP), roles: ['ROLE_USER'] },
]);
const firewalls = new FirewallMap(DEMO_FIREWALLS);
const firewall = createFirewallListener({ firewalls, verifier: new CredentialsVerifier(users) });
const registry = new ListenerRegistry([firewall]);
const CHALLENGE = 'Basic realm="Loupe"';

/** An exchange for a GET of `path` whose Host header carries no port, with `headers` added. */
const get = (path: string, headers: Record<string, string> = {}): Exchange => exchangeFor({ path, headers: { host: '127.0.0.1', ...headers } });

const basic = (identifier: string, password: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}`,
});

const userOf = (exchange: Exchange): AuthenticatedUser | null => exchange.attributes.get(KernelAttributes.USER) ?? null;

/** kernel.request as the kernel runs it: an asynchronous credential check is awaited. */
function request(exchange: Exchange): Promise<void> {
  return runPhase(firewall, 'kernel.request', exchange);
}

/** A firewall over its own verifier, so that what it caches is this test's alone. */
function isolatedFirewall(): { listener: ReturnType<typeof createFirewallListener>; verifier: CredentialsVerifier } {
  const verifier = new CredentialsVerifier(users);
  return { listener: createFirewallListener({ firewalls, verifier }), verifier };
}

test('runs as Firewall at kernel.request 8 and finish_request 0', (t) => {
  t.deepEqual(registry.for('kernel.request').map((l) => [l.name, l.priority]), [['Firewall', 8]]);
  t.deepEqual(registry.for('kernel.finish_request').map((l) => l.priority), [0]);
});

test('/admin without credentials: 401 asking for full authentication, with the Basic challenge', async (t) => {
  const error = await t.throwsAsync(request(get('/admin')), { instanceOf: UnauthorizedHttpError });
  t.is(error?.message, 'Full authentication is required to access this resource.');
  t.is(error?.statusCode, 401);
  t.deepEqual(error?.headers, { 'WWW-Authenticate': CHALLENGE });
});

test('/admin with the right Basic credentials: the user is authenticated via http_basic', async (t) => {
  const exchange = get('/admin', basic('admin', 'loupe'));
  await request(exchange);
  t.deepEqual(userOf(exchange), { identifier: 'admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], via: 'http_basic' });
  t.is(exchange.attributes.get(SecurityAttributes.FIREWALL), 'main');
});

test('wrong Basic credentials are refused on any path of the firewall', async (t) => {
  for (const path of ['/admin', '/hello/anna']) {
    const error = await t.throwsAsync(request(get(path, basic('admin', 'wrong'))), { instanceOf: UnauthorizedHttpError });
    t.is(error?.message, 'Invalid credentials.');
    t.deepEqual(error?.headers, { 'WWW-Authenticate': CHALLENGE });
  }
  // Unreadable credentials are refused at once: there is nothing to check.
  t.throws(() => runPhaseSync(firewall, 'kernel.request', get('/admin', { authorization: 'Basic !!!' })), { instanceOf: UnauthorizedHttpError, message: 'Invalid credentials.' });
});

test('a user without ROLE_ADMIN gets a 403 on /admin', async (t) => {
  const error = await t.throwsAsync(request(get('/admin/users', basic('anna', 'anna-pw'))), { instanceOf: ForbiddenHttpError });
  t.is(error?.statusCode, 403);
  t.is(error?.code, 'LOUPE_ERR_HTTP_FORBIDDEN');
});

test('percent-encoding the path does not avoid the access rule', async (t) => {
  await t.throwsAsync(request(get('/%61dmin')), { instanceOf: UnauthorizedHttpError });
});

test('open paths need no user; a user set earlier (remember-me) is kept and checked', async (t) => {
  const open = get('/hello/anna');
  await t.notThrowsAsync(request(open));
  t.is(userOf(open), null);
  const remembered = get('/admin');
  remembered.attributes.set(KernelAttributes.USER, { identifier: 'admin', roles: ['ROLE_ADMIN'], via: 'remember_me' });
  await t.notThrowsAsync(request(remembered));
  t.is(userOf(remembered)?.via, 'remember_me');
  const notAdmin = get('/admin');
  notAdmin.attributes.set(KernelAttributes.USER, { identifier: 'anna', roles: ['ROLE_USER'], via: 'remember_me' });
  await t.throwsAsync(request(notAdmin), { instanceOf: ForbiddenHttpError });
});

test('the dev firewall (profiler) is not secured: Basic headers are not even read there', (t) => {
  const exchange = get('/_profiler/abc123', basic('admin', 'wrong'));
  t.notThrows(() => runPhaseSync(firewall, 'kernel.request', exchange));
  t.is(userOf(exchange), null);
  t.is(exchange.attributes.get(SecurityAttributes.FIREWALL), 'dev');
});

test('sub-requests are not handled; finish_request forgets the firewall', async (t) => {
  const main = get('/admin', basic('admin', 'loupe'));
  await request(main);
  t.is(main.attributes.get(SecurityAttributes.FIREWALL), 'main');
  const sub = main.createErrorSubRequest(new Error('x'), { name: 'error', handle: () => null });
  t.notThrows(() => runPhaseSync(firewall, 'kernel.request', sub));
  t.is(sub.attributes.get(SecurityAttributes.FIREWALL), undefined);
  t.is(userOf(sub), null);
  runPhaseSync(firewall, 'kernel.finish_request', main);
  t.false(main.attributes.has(SecurityAttributes.FIREWALL));
});

/** The firewall's kernel.request handler, called as the kernel calls it: what it returns is kept. */
function handleRequest(listener: ReturnType<typeof createFirewallListener>, exchange: Exchange): unknown {
  const [subscribed] = new ListenerRegistry([listener]).for('kernel.request');
  if (subscribed === undefined) throw new Error('the firewall must subscribe to kernel.request');
  return subscribed.handle(createPhaseEvent('kernel.request', exchange));
}

test('a wrong password is checked asynchronously: the handler returns a promise that ends in a 401', async (t) => {
  const { listener, verifier } = isolatedFirewall();
  const exchange = get('/hello/anna', basic('admin', 'wrong'));
  const result = handleRequest(listener, exchange);
  t.true(result instanceof Promise, 'scrypt must not run on the event loop inside the phase');
  t.is(userOf(exchange), null, 'nobody is authenticated before the check settles');
  const error = await t.throwsAsync(result as Promise<void>, { instanceOf: UnauthorizedHttpError, message: 'Invalid credentials.' });
  t.is(error?.statusCode, 401);
  t.deepEqual(error?.headers, { 'WWW-Authenticate': CHALLENGE });
  t.is(userOf(exchange), null);
  t.is(verifier.cachedCount, 0);
  t.is(exchange.trace.logs.at(-1)?.message, 'HTTP Basic authentication failed.');
  // A failure is never cached: the same wrong password is checked asynchronously again.
  const again = handleRequest(listener, get('/hello/anna', basic('admin', 'wrong')));
  t.true(again instanceof Promise);
  await t.throwsAsync(again as Promise<void>, { instanceOf: UnauthorizedHttpError });
});

test('a cached good credential is answered without scrypt, still asynchronously (the throttle is asked first), access control included', async (t) => {
  const { listener, verifier } = isolatedFirewall();
  // The first check of these credentials runs scrypt asynchronously, then caches the success.
  const first = get('/admin', basic('admin', 'loupe'));
  const checking = handleRequest(listener, first);
  t.true(checking instanceof Promise);
  t.is(verifier.cachedCount, 0);
  await checking;
  t.is(userOf(first)?.identifier, 'admin');
  t.is(verifier.cachedCount, 1);

  const cached = get('/admin', basic('admin', 'loupe'));
  await t.notThrowsAsync(runPhase(listener, 'kernel.request', cached));
  t.deepEqual(userOf(cached), { identifier: 'admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], via: 'http_basic' });
  t.is(cached.attributes.get(SecurityAttributes.FIREWALL), 'main');

  t.is(verifier.cachedCount, 1, 'checked again');

  // Access control runs on the cached path too: a cached user without the role gets the 403.
  await runPhase(listener, 'kernel.request', get('/hello/anna', basic('anna', 'anna-pw')));
  await t.throwsAsync(runPhase(listener, 'kernel.request', get('/admin', basic('anna', 'anna-pw'))), { instanceOf: ForbiddenHttpError });
});
