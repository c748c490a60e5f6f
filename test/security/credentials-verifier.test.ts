import test from 'ava';
import { CredentialsVerifier } from '../../src/security/credentials-verifier';
import { hashPasswordSync } from '../../src/security/password-hasher';
import { InMemoryUserProvider, type SecurityUser, type UserProvider } from '../../src/security/user-provider';

const CHEAP = { N: 1024, r: 8, p: 1 };
const alice: SecurityUser = { identifier: 'alice', passwordHash: hashPasswordSync('wonderland', CHEAP), roles: ['ROLE_USER'] };
const bob: SecurityUser = { identifier: 'bob', passwordHash: hashPasswordSync('builder', CHEAP), roles: ['ROLE_USER'] };
const carol: SecurityUser = { identifier: 'carol', passwordHash: hashPasswordSync('singer', CHEAP), roles: ['ROLE_ADMIN'] };

test('right credentials give the user, synchronously and asynchronously', async (t) => {
  const verifier = new CredentialsVerifier(new InMemoryUserProvider([alice]));
  t.is(verifier.verifySync('alice', 'wonderland')?.identifier, 'alice');
  t.deepEqual((await verifier.verify('alice', 'wonderland'))?.roles, ['ROLE_USER']);
});

test('wrong passwords and unknown users give null and are never cached', async (t) => {
  const verifier = new CredentialsVerifier(new InMemoryUserProvider([alice]));
  t.is(verifier.verifySync('alice', 'nope'), null);
  t.is(await verifier.verify('alice', 'nope'), null);
  t.is(verifier.verifySync('mallory', 'wonderland'), null);
  t.is(await verifier.verify('mallory', 'wonderland'), null);
  t.is(verifier.cachedCount, 0);
});

test('a success is cached once; the cache is bounded and forgets the least recently used', (t) => {
  const verifier = new CredentialsVerifier(new InMemoryUserProvider([alice, bob, carol]), { cacheSize: 2 });
  verifier.verifySync('alice', 'wonderland');
  verifier.verifySync('alice', 'wonderland');
  t.is(verifier.cachedCount, 1);
  verifier.verifySync('bob', 'builder');
  verifier.verifySync('alice', 'wonderland'); // alice is now the most recent
  verifier.verifySync('carol', 'singer'); // evicts bob
  t.is(verifier.cachedCount, 2);
});

test('a cached success does not survive a password change', (t) => {
  let current: SecurityUser = alice;
  const provider: UserProvider = { loadUser: (identifier) => (identifier === 'alice' ? current : null) };
  const verifier = new CredentialsVerifier(provider);
  t.truthy(verifier.verifySync('alice', 'wonderland'));
  current = { ...alice, passwordHash: hashPasswordSync('looking-glass', CHEAP) };
  t.is(verifier.verifySync('alice', 'wonderland'), null);
  t.truthy(verifier.verifySync('alice', 'looking-glass'));
});

test('the cache makes a repeated check much cheaper than scrypt', (t) => {
  // At the default cost one scrypt takes tens of milliseconds; 50 cached checks must not.
  const admin: SecurityUser = { identifier: 'admin', passwordHash: hashPasswordSync('loupe'), roles: [] };
  const verifier = new CredentialsVerifier(new InMemoryUserProvider([admin]));
  const first = process.hrtime.bigint();
  t.truthy(verifier.verifySync('admin', 'loupe'));
  const scryptNs = process.hrtime.bigint() - first;
  const start = process.hrtime.bigint();
  for (let i = 0; i < 50; i++) verifier.verifySync('admin', 'loupe');
  t.true(process.hrtime.bigint() - start < scryptNs, 'fifty cached checks took longer than one scrypt');
});

test('the provider refuses a malformed hash or a duplicate user at construction', (t) => {
  t.throws(() => new InMemoryUserProvider([{ ...alice, passwordHash: 'wonderland' }]), { message: /Invalid password hash for user "alice"/ });
  t.throws(() => new InMemoryUserProvider([alice, alice]), { message: /configured twice/ });
});
