import test from 'ava';
import { DEMO_FIREWALLS } from '../../demo/firewalls';
import { FirewallMap } from '../../src/security/firewall-map';

const map = new FirewallMap(DEMO_FIREWALLS);

test('the profiler and toolbar belong to the unsecured dev firewall', (t) => {
  for (const path of ['/_profiler/abc123', '/_profiler', '/_wdt/abc123']) {
    t.like(map.match(path), { name: 'dev', security: false }, path);
  }
});

test('everything else belongs to main, with HTTP Basic and remember-me', (t) => {
  for (const path of ['/', '/admin', '/hello/anna', '/x_profiler']) {
    t.like(map.match(path), { name: 'main', security: true, httpBasicRealm: 'Loupe', rememberMe: true }, path);
  }
});

test('/admin and below require ROLE_ADMIN; other paths require nothing', (t) => {
  const main = map.match('/');
  if (main === null) return t.fail('no main firewall');
  t.deepEqual(map.requiredRoles(main, '/admin'), ['ROLE_ADMIN']);
  t.deepEqual(map.requiredRoles(main, '/admin/users'), ['ROLE_ADMIN']);
  t.deepEqual(map.requiredRoles(main, '/hello/admin'), []);
  t.deepEqual(map.requiredRoles(main, '/session'), []);
});

test('percent-encoding does not slip past a rule', (t) => {
  const main = map.match('/%61dmin');
  if (main === null) return t.fail('no firewall');
  t.deepEqual(map.requiredRoles(main, '/%61dmin'), ['ROLE_ADMIN']);
  t.like(map.match('/%5Fprofiler/abc'), { name: 'dev' });
  t.like(map.match('/%E0%A4%A'), { name: 'main' }); // malformed escapes are matched as sent
});

test('the first matching firewall wins; no match gives null', (t) => {
  const firewalls = new FirewallMap([
    { name: 'api', pattern: /^\/api/, security: true },
    { name: 'all', pattern: /^\/api|^\/shop/, security: false },
  ]);
  t.is(firewalls.match('/api/x')?.name, 'api');
  t.is(firewalls.match('/shop')?.name, 'all');
  t.is(firewalls.match('/other'), null);
});
