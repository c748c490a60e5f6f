import test from 'ava';
import { CredentialsVerifier } from '../../src/security/credentials-verifier';
import { hashPasswordSync } from '../../src/security/password-hasher';
import { InMemoryUserProvider, type SecurityUser, type UserProvider } from '../../src/security/user-provider';

const CHEAP = { N: 1024, r: 8, p: 1 };
const alice: SecurityUser = { identifier: 'alice', passwordHash: hashPasswordSync('wonderland', CHEAP), roles: ['ROLE_USER'] };
const bob: SecurityUser = { identifier: 'bob', passwordHash: hashPasswordSync('builder', CHEAP), roles: ['ROLE_USER'] };
const carol: SecurityUser = { identifier: 'carol', passwordHash: hashPasswordSync('singer', CHEAP), roles: ['ROLE_ADMIN'] };

test('right credentials give the user; once verified they are known synchronously too', async (t) => {
  const verifier = new CredentialsVerifier(new InMemoryUserProvider([alice]));
  t.is(verifier.verifyCached('alice', 'wonderland'), null, 'nothing is known before a first verification');
  const verified = verifier.verify('alice', 'wonderland');
  t.true(verified instanceof Promise);
  t.deepEqual((await verified)?.roles, ['ROLE_USER']);
  t.is(verifier.verifyCached('alice', 'wonderland')?.identifier, 'alice');
  t.is((await verifier.verify('alice', 'wonderland'))?.identifier, 'alice');
});

test('wrong passwords and unknown users give null and are never cached', async (t) => {
  const verifier = new CredentialsVerifier(new InMemoryUserProvider([alice]));
  t.is(await verifier.verify('alice', 'nope'), null);
  t.is(verifier.verifyCached('alice', 'nope'), null);
  t.is(await verifier.verify('mallory', 'wonderland'), null);
  t.is(verifier.verifyCached('mallory', 'wonderland'), null);
  t.is(verifier.cachedCount, 0);
  await verifier.verify('alice', 'wonderland');
  t.is(verifier.verifyCached('alice', 'nope'), null, 'a cached success does not vouch for another password');
});

test('a success is cached once; the cache is bounded and forgets the least recently used', async (t) => {
  const verifier = new CredentialsVerifier(new InMemoryUserProvider([alice, bob, carol]), { cacheSize: 2 });
  await verifier.verify('alice', 'wonderland');
  await verifier.verify('alice', 'wonderland');
  t.is(verifier.cachedCount, 1);
  await verifier.verify('bob', 'builder');
  t.truthy(verifier.verifyCached('alice', 'wonderland')); // alice is now the most recent
  await verifier.verify('carol', 'singer'); // evicts bob
  t.is(verifier.cachedCount, 2);
  t.is(verifier.verifyCached('bob', 'builder'), null);
  t.truthy(verifier.verifyCached('alice', 'wonderland'));
  t.truthy(verifier.verifyCached('carol', 'singer'));
});

test('a cached success does not survive a password change', async (t) => {
  let current: SecurityUser = alice;
  const provider: UserProvider = { loadUser: (identifier) => (identifier === 'alice' ? current : null) };
  const verifier = new CredentialsVerifier(provider);
  t.truthy(await verifier.verify('alice', 'wonderland'));
  t.truthy(verifier.verifyCached('alice', 'wonderland'));
  current = { ...alice, passwordHash: hashPasswordSync('looking-glass', CHEAP) };
  t.is(verifier.verifyCached('alice', 'wonderland'), null);
  t.is(await verifier.verify('alice', 'wonderland'), null);
  t.truthy(await verifier.verify('alice', 'looking-glass'));
});

test('the cache makes a repeated check much cheaper than scrypt', async (t) => {
  // At the default cost one scrypt takes tens of milliseconds; 50 cached checks must not.
  const admin: SecurityUser = { identifier: 'admin', passwordHash: hashPasswordSync('loupe'), roles: [] };
  const verifier = new CredentialsVerifier(new InMemoryUserProvider([admin]));
  const first = process.hrtime.bigint();
  t.truthy(await verifier.verify('admin', 'loupe'));
  const scryptNs = process.hrtime.bigint() - first;
  const start = process.hrtime.bigint();
  for (let i = 0; i < 50; i++) t.truthy(verifier.verifyCached('admin', 'loupe'));
  t.true(process.hrtime.bigint() - start < scryptNs, 'fifty cached checks took longer than one scrypt');
});

test('the provider refuses a malformed hash or a duplicate user at construction', (t) => {
  t.throws(() => new InMemoryUserProvider([{ ...alice, passwordHash: 'wonderland' }]), { message: /Invalid password hash for user "alice"/ });
  t.throws(() => new InMemoryUserProvider([alice, alice]), { message: /configured twice/ });
});

test('an asynchronous user provider: verify() awaits it; verifyCached() never answers, so callers take the async path', async (t) => {
  const provider: UserProvider = { loadUser: (identifier) => Promise.resolve(identifier === 'alice' ? alice : null) };
  const verifier = new CredentialsVerifier(provider);
  t.is((await verifier.verify('alice', 'wonderland'))?.identifier, 'alice');
  t.is(await verifier.verify('alice', 'nope'), null);
  t.is(await verifier.verify('mallory', 'wonderland'), null);
  t.is(verifier.cachedCount, 1);
  t.is(verifier.verifyCached('alice', 'wonderland'), null);
  t.is((await verifier.verify('alice', 'wonderland'))?.identifier, 'alice', 'the cached success still spares scrypt on the async path');
});
