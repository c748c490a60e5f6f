import test from 'ava';
import { parseCookies, serializeCookie } from '../../src/http/cookies';

test('parseCookies reads name=value pairs separated by semicolons, trimming spaces', (t) => {
  t.deepEqual(parseCookies('a=1; b=two;c=3 ;  d = four '), { a: '1', b: 'two', c: '3', d: 'four' });
});

test('parseCookies keeps everything after the first "=" as the value', (t) => {
  t.deepEqual(parseCookies('token=abc==; q=a=b'), { token: 'abc==', q: 'a=b' });
});

test('parseCookies removes the double quotes around a value', (t) => {
  t.deepEqual(parseCookies('a="quoted value"; b=""; c="'), { a: 'quoted value', b: '', c: '"' });
});

test('parseCookies percent-decodes values', (t) => {
  t.deepEqual(parseCookies('name=J%C3%BCrgen; path=%2Fadmin%3Fx%3D1; plus=a+b'), { name: 'Jürgen', path: '/admin?x=1', plus: 'a+b' });
  t.deepEqual(parseCookies('q="a%20b"'), { q: 'a b' });
});

test('parseCookies keeps a value with an invalid escape as it was sent', (t) => {
  t.deepEqual(parseCookies('a=100%; b=%E0%A4%A; c=%ZZ; d=%C3'), { a: '100%', b: '%E0%A4%A', c: '%ZZ', d: '%C3' });
});

test('parseCookies keeps the first of several cookies with the same name', (t) => {
  t.deepEqual(parseCookies('sid=first; other=x; sid=second'), { sid: 'first', other: 'x' });
});

test('parseCookies ignores empty and nameless pairs', (t) => {
  t.deepEqual(parseCookies(''), {});
  t.deepEqual(parseCookies(';;  ;'), {});
  t.deepEqual(parseCookies('novalue; =orphan;  = spaced; a=1'), { a: '1' });
  // An empty value is still a cookie (RFC 6265 §4.2.1).
  t.deepEqual(parseCookies('empty='), { empty: '' });
});

test('parseCookies keeps cookies named like Object.prototype members', (t) => {
  t.deepEqual(parseCookies('constructor=a; toString=b'), { constructor: 'a', toString: 'b' });
});

test('serializeCookie defaults to Path=/, HttpOnly and SameSite=Lax', (t) => {
  t.is(serializeCookie('sid', 'abc'), 'sid=abc; Path=/; HttpOnly; SameSite=Lax');
});

test('serializeCookie percent-encodes the value', (t) => {
  t.is(serializeCookie('q', 'a b;c=d,é'), 'q=a%20b%3Bc%3Dd%2C%C3%A9; Path=/; HttpOnly; SameSite=Lax');
  t.deepEqual(parseCookies(serializeCookie('q', 'a b;c=d,é').split('; ')[0] ?? ''), { q: 'a b;c=d,é' });
});

test('serializeCookie writes Max-Age together with the matching Expires date', (t) => {
  const before = Math.floor(Date.now() / 1000) * 1000;
  const cookie = serializeCookie('remember', 'x', { maxAge: 3600 });
  const after = Date.now();
  const parts = cookie.split('; ');
  t.deepEqual([parts[0], parts[1], ...parts.slice(3)], ['remember=x', 'Max-Age=3600', 'Path=/', 'HttpOnly', 'SameSite=Lax']);
  const expires = /^Expires=(.+ GMT)$/.exec(parts[2] ?? '')?.[1];
  if (expires === undefined) return t.fail(`no Expires in ${cookie}`);
  const at = Date.parse(expires);
  t.true(at >= before + 3_600_000 && at <= after + 3_600_000, `${expires} is not one hour from now`);
});

test('serializeCookie with Max-Age=0 expires the cookie now', (t) => {
  const before = Math.floor(Date.now() / 1000) * 1000;
  const expires = /Expires=([^;]+)/.exec(serializeCookie('sid', '', { maxAge: 0 }))?.[1];
  if (expires === undefined) return t.fail('no Expires');
  const at = Date.parse(expires);
  t.true(at >= before && at <= Date.now());
});

test('serializeCookie honours path, Secure, HttpOnly and SameSite options', (t) => {
  t.is(serializeCookie('a', 'b', { path: '/admin', secure: true }), 'a=b; Path=/admin; Secure; HttpOnly; SameSite=Lax');
  t.is(serializeCookie('a', 'b', { httpOnly: false, sameSite: 'Strict' }), 'a=b; Path=/; SameSite=Strict');
  t.is(serializeCookie('a', 'b', { secure: false, sameSite: 'None' }), 'a=b; Path=/; HttpOnly; SameSite=None');
});
