import test from 'ava';
import { ForbiddenHttpError, UnauthorizedHttpError } from '../../src/errors/http-error';
import { type Exchange } from '../../src/kernel/exchange';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { createFirewallListener } from '../../src/security/firewall-listener';
import { CredentialsVerifier } from '../../src/security/credentials-verifier';
import { createDemoFirewallMap } from '../../src/security/demo-firewalls';
import { hashPasswordSync } from '../../src/security/password-hasher';
import { SecurityBagKeys } from '../../src/security/security-bag-keys';
import { InMemoryUserProvider } from '../../src/security/user-provider';
import { exchangeFor } from '../helpers/request-data';

const CHEAP = { N: 1024, r: 8, p: 1 };
const users = new InMemoryUserProvider([
  { identifier: 'admin', passwordHash: hashPasswordSync('loupe', CHEAP), roles: ['ROLE_ADMIN', 'ROLE_USER'] },
  { identifier: 'anna', passwordHash: hashPasswordSync('anna-pw', CHEAP), roles: ['ROLE_USER'] },
]);
const registry = new ListenerRegistry([createFirewallListener({ firewalls: createDemoFirewallMap(), verifier: new CredentialsVerifier(users) })]);
const CHALLENGE = 'Basic realm="Loupe"';

/** An exchange for a GET of `path` whose Host header carries no port, with `headers` added. */
const get = (path: string, headers: Record<string, string> = {}): Exchange => exchangeFor({ path, headers: { host: '127.0.0.1', ...headers } });

const basic = (identifier: string, password: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${identifier}:${password}`).toString('base64')}`,
});

function request(exchange: Exchange): void {
  for (const listener of registry.for('kernel.request')) listener.handle(exchange);
}

test('runs as Firewall at kernel.request 8 and finish_request 0', (t) => {
  t.deepEqual(registry.for('kernel.request').map((l) => [l.name, l.priority]), [['Firewall', 8]]);
  t.deepEqual(registry.for('kernel.finish_request').map((l) => l.priority), [0]);
});

test('/admin without credentials: 401 asking for full authentication, with the Basic challenge', (t) => {
  const error = t.throws(() => request(get('/admin')), { instanceOf: UnauthorizedHttpError });
  t.is(error?.message, 'Full authentication is required to access this resource.');
  t.is(error?.statusCode, 401);
  t.deepEqual(error?.headers, { 'WWW-Authenticate': CHALLENGE });
});

test('/admin with the right Basic credentials: the user is authenticated via http_basic', (t) => {
  const exchange = get('/admin', basic('admin', 'loupe'));
  request(exchange);
  t.deepEqual(exchange.user, { identifier: 'admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], via: 'http_basic' });
  t.is(exchange.bag.get(SecurityBagKeys.FIREWALL), 'main');
});

test('wrong Basic credentials are refused on any path of the firewall', (t) => {
  for (const path of ['/admin', '/hello/anna']) {
    const error = t.throws(() => request(get(path, basic('admin', 'wrong'))), { instanceOf: UnauthorizedHttpError });
    t.is(error?.message, 'Invalid credentials.');
    t.deepEqual(error?.headers, { 'WWW-Authenticate': CHALLENGE });
  }
  t.throws(() => request(get('/admin', { authorization: 'Basic !!!' })), { message: 'Invalid credentials.' });
});

test('a user without ROLE_ADMIN gets a 403 on /admin', (t) => {
  const error = t.throws(() => request(get('/admin/users', basic('anna', 'anna-pw'))), { instanceOf: ForbiddenHttpError });
  t.is(error?.statusCode, 403);
  t.is(error?.code, 'LOUPE_ERR_HTTP_FORBIDDEN');
});

test('percent-encoding the path does not avoid the access rule', (t) => {
  t.throws(() => request(get('/%61dmin')), { instanceOf: UnauthorizedHttpError });
});

test('open paths need no user; a user set earlier (remember-me) is kept and checked', (t) => {
  const open = get('/hello/anna');
  t.notThrows(() => request(open));
  t.is(open.user, null);
  const remembered = get('/admin');
  remembered.user = { identifier: 'admin', roles: ['ROLE_ADMIN'], via: 'remember_me' };
  t.notThrows(() => request(remembered));
  t.is(remembered.user.via, 'remember_me');
});

test('the dev firewall (profiler) is not secured: Basic headers are not even read there', (t) => {
  const exchange = get('/_profiler/abc123', basic('admin', 'wrong'));
  t.notThrows(() => request(exchange));
  t.is(exchange.user, null);
  t.is(exchange.bag.get(SecurityBagKeys.FIREWALL), 'dev');
});

test('sub-requests are not handled; finish_request forgets the firewall', (t) => {
  const main = get('/admin', basic('admin', 'loupe'));
  request(main);
  const sub = main.createErrorSubRequest(new Error('x'), { name: 'error', handle: () => null });
  t.notThrows(() => request(sub));
  t.is(sub.bag.get(SecurityBagKeys.FIREWALL), undefined);
  for (const listener of registry.for('kernel.finish_request')) listener.handle(main);
  t.false(main.bag.has(SecurityBagKeys.FIREWALL));
});
