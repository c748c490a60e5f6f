import test from 'ava';
import { RememberMeSigner } from '../../src/security/remember-me-signer';

const NOW = 1_800_000_000;
const signer = new RememberMeSigner('test-secret');
const bindingOf = (identifier: string): string | null => (identifier === 'admin' ? 'hash-of-admin' : identifier === 'eve' ? 'hash-of-eve' : null);

test('a signed cookie checks out before it expires', (t) => {
  const token = signer.sign({ u: 'admin', e: NOW + 60 }, 'hash-of-admin');
  t.regex(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
  t.deepEqual(signer.check(token, NOW, bindingOf), { valid: true, payload: { u: 'admin', e: NOW + 60 } });
});

test('an expired cookie is refused', (t) => {
  const token = signer.sign({ u: 'admin', e: NOW }, 'hash-of-admin');
  t.deepEqual(signer.check(token, NOW, bindingOf), { valid: false, reason: 'expired' });
  t.deepEqual(signer.check(token, NOW + 3600, bindingOf), { valid: false, reason: 'expired' });
});

test('a payload rewritten to another user or a later expiry is refused', (t) => {
  const token = signer.sign({ u: 'eve', e: NOW + 60 }, 'hash-of-eve');
  const signature = token.split('.')[1] ?? '';
  const forged = (payload: object): string => `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
  t.deepEqual(signer.check(forged({ u: 'admin', e: NOW + 60 }), NOW, bindingOf), { valid: false, reason: 'signature' });
  t.deepEqual(signer.check(forged({ u: 'eve', e: NOW + 999_999 }), NOW, bindingOf), { valid: false, reason: 'signature' });
});

test('a changed signature, another secret or a changed password is refused', (t) => {
  const token = signer.sign({ u: 'admin', e: NOW + 60 }, 'hash-of-admin');
  const last = token.at(-2) === 'A' ? 'B' : 'A';
  const flipped = `${token.slice(0, -2)}${last}${token.slice(-1)}`;
  t.deepEqual(signer.check(flipped, NOW, bindingOf), { valid: false, reason: 'signature' });
  t.deepEqual(signer.check(`${token}AA`, NOW, bindingOf), { valid: false, reason: 'signature' });
  // The last character carries two unused bits: another spelling of the same MAC is refused too.
  const lastChar = token.at(-1) ?? 'A';
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const sameBits = alphabet[alphabet.indexOf(lastChar) ^ 1] ?? 'A';
  t.deepEqual(signer.check(`${token.slice(0, -1)}${sameBits}`, NOW, bindingOf), { valid: false, reason: 'signature' });
  t.deepEqual(new RememberMeSigner('other-secret').check(token, NOW, bindingOf), { valid: false, reason: 'signature' });
  t.deepEqual(signer.check(token, NOW, () => 'new-hash-of-admin'), { valid: false, reason: 'signature' });
});

test('a cookie for a user who no longer exists is refused', (t) => {
  const token = signer.sign({ u: 'gone', e: NOW + 60 }, 'whatever');
  t.deepEqual(signer.check(token, NOW, bindingOf), { valid: false, reason: 'unknown_user' });
});

test('garbage is refused as malformed without throwing', (t) => {
  for (const token of ['', 'abc', 'a.b.c', '!!.sig', `${Buffer.from('[1]').toString('base64url')}.sig`, `${Buffer.from('{"u":1,"e":2}').toString('base64url')}.sig`, 'x'.repeat(5000)]) {
    t.deepEqual(signer.check(token, NOW, bindingOf), { valid: false, reason: 'malformed' }, token.slice(0, 40));
  }
});
