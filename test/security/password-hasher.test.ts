import test from 'ava';
import { DEMO_USERS } from '../../demo/users';
import {
  hashPassword,
  hashPasswordSync,
  parsePasswordHash,
  verifyPassword,
} from '../../src/security/password-hasher';

// A low cost keeps the suite fast; the format and the comparison are the same at any cost.
const CHEAP = { N: 1024, r: 8, p: 1 };

test('a hash has the documented format and a fresh salt each time', async (t) => {
  const first = await hashPassword('s3cret', CHEAP);
  const second = hashPasswordSync('s3cret', CHEAP);
  t.regex(first, /^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]+=*\$[A-Za-z0-9+/]+=*$/);
  t.not(first.split('$')[4], second.split('$')[4]);
  t.deepEqual(parsePasswordHash(first)?.hash.length, 32);
});

test('the right password verifies', async (t) => {
  const hash = await hashPassword('s3cret', CHEAP);
  t.true(await verifyPassword('s3cret', hash));
});

test('a wrong password does not verify', async (t) => {
  const hash = hashPasswordSync('s3cret', CHEAP);
  t.false(await verifyPassword('s3cret ', hash));
  t.false(await verifyPassword('S3cret', hash));
  t.false(await verifyPassword('', hash));
});

test('the cost stored in the hash is the one used to verify', async (t) => {
  const hash = hashPasswordSync('s3cret', CHEAP);
  const withOtherCost = hash.replace('scrypt$1024$', 'scrypt$2048$');
  t.false(await verifyPassword('s3cret', withOtherCost));
});

test('malformed or absurd hashes never verify and never throw', async (t) => {
  const good = hashPasswordSync('x', CHEAP);
  const [, , , , salt, hash] = good.split('$');
  for (const bad of [
    '',
    'plain',
    'bcrypt$10$abc',
    `scrypt$1000$8$1$${salt}$${hash}`, // N not a power of two
    `scrypt$1048576$32$1$${salt}$${hash}`, // 4 GiB of memory
    `scrypt$1024$8$1$$${hash}`,
    `scrypt$1024$8$1$${salt}$AAAA`,
  ]) {
    t.is(parsePasswordHash(bad), null, bad);
    t.false(await verifyPassword('x', bad), bad);
  }
});

test('the demo user "admin" has the documented password "loupe"', async (t) => {
  const admin = DEMO_USERS.find((user) => user.identifier === 'admin');
  t.truthy(admin);
  t.true(await verifyPassword('loupe', admin?.passwordHash ?? ''));
  t.false(await verifyPassword('admin', admin?.passwordHash ?? ''));
  t.deepEqual(admin?.roles, ['ROLE_ADMIN', 'ROLE_USER']);
});
