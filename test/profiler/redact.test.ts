import test from 'ava';
import { REDACTED, redactCookies, redactData, redactHeaders } from '../../src/profiler/redact';

/** `{ a: { a: … { a: leaf } } }` with `levels` objects around `leaf`. */
function nested(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** Follows `a` `levels` times. */
function dig(value: unknown, levels: number): unknown {
  let current = value;
  for (let i = 0; i < levels; i++) current = (current as Record<string, unknown>)['a'];
  return current;
}

test('the replacement is six asterisks', (t) => {
  t.is(REDACTED, '******');
});

test('Authorization, Proxy-Authorization, Cookie, Set-Cookie and X-CSRF-Token are redacted whatever their case; other headers are kept', (t) => {
  const redacted = redactHeaders({
    Authorization: 'Basic YWRtaW46c2VjcmV0',
    'proxy-authorization': 'Bearer abc',
    COOKIE: 'LOUPESESSID=abc; theme=dark',
    'Set-Cookie': 'LOUPESESSID=abc; Path=/',
    'X-CSRF-Token': 'csrf',
    'Content-Type': 'application/json',
    host: '127.0.0.1:8000',
  });
  t.deepEqual(redacted, {
    Authorization: REDACTED,
    'proxy-authorization': REDACTED,
    COOKIE: REDACTED,
    'Set-Cookie': REDACTED,
    'X-CSRF-Token': REDACTED,
    'Content-Type': 'application/json',
    host: '127.0.0.1:8000',
  });
});

test('a multi-valued secret header keeps one redacted item per value; other arrays are copied', (t) => {
  const cookies = ['a=1; Path=/', 'b=2; Path=/'];
  const vary = ['Accept', 'Cookie'];
  const redacted = redactHeaders({ 'Set-Cookie': cookies, Vary: vary });
  t.deepEqual(redacted, { 'Set-Cookie': [REDACTED, REDACTED], Vary: ['Accept', 'Cookie'] });
  t.not(redacted['Vary'], vary, 'a copy, not the array the response still holds');
  t.deepEqual(cookies, ['a=1; Path=/', 'b=2; Path=/'], 'the input is left alone');
});

test('cookies named in the secret set, or named like a token, secret or password, are redacted', (t) => {
  const redacted = redactCookies(
    { LOUPESESSID: 'abc', REMEMBERME: 'def', theme: 'dark', csrf_token: 'ghi', client_secret: 'jkl', Password: 'mno', lang: 'fr' },
    new Set(['LOUPESESSID', 'REMEMBERME']),
  );
  t.deepEqual(redacted, {
    LOUPESESSID: REDACTED,
    REMEMBERME: REDACTED,
    theme: 'dark',
    csrf_token: REDACTED,
    client_secret: REDACTED,
    Password: REDACTED,
    lang: 'fr',
  });
});

test('secret names are matched exactly: a cookie merely resembling one is kept', (t) => {
  t.deepEqual(redactCookies({ loupesessid: 'abc', session: 'x' }, new Set(['LOUPESESSID'])), { loupesessid: 'abc', session: 'x' });
});

test('fields named like password, secret, token, api_key or signature are redacted at any depth', (t) => {
  const input = {
    username: 'anna',
    password: 'hunter2',
    profile: { client_secret: 's', settings: { 'api-key': 'k', apiKey: 'k2', theme: 'dark' } },
    items: [{ token: 't', name: 'first' }, { signature: 'sig', name: 'second' }],
    credentials: { user: 'u' },
  };
  t.deepEqual(redactData(input), {
    username: 'anna',
    password: REDACTED,
    profile: { client_secret: REDACTED, settings: { 'api-key': REDACTED, apiKey: REDACTED, theme: 'dark' } },
    items: [
      { token: REDACTED, name: 'first' },
      { signature: REDACTED, name: 'second' },
    ],
    credentials: REDACTED,
  });
  t.is(input.password, 'hunter2', 'the input is left alone');
});

test('a secret field deep down is still redacted', (t) => {
  const out = redactData(nested(6, { password: 'hunter2', kept: 1 }));
  t.deepEqual(dig(out, 6), { password: REDACTED, kept: 1 });
});

test('scalars pass through; strings up to 4096 characters are kept whole', (t) => {
  t.is(redactData(null), null);
  t.is(redactData(42), 42);
  t.is(redactData(false), false);
  const exact = 'x'.repeat(4096);
  t.is(redactData(exact), exact);
});

test('a longer string is cut to 4096 characters with a note of its length', (t) => {
  const long = 'é'.repeat(5000);
  t.is(redactData(long), `${'é'.repeat(4096)}… (5000 characters)`);
  t.deepEqual(redactData({ text: 'y'.repeat(4097) }), { text: `${'y'.repeat(4096)}… (4097 characters)` });
});

test('nesting is cut at depth 8 with a marker', (t) => {
  const kept = redactData(nested(8, 'leaf'));
  t.is(dig(kept, 8), 'leaf', 'eight objects deep, a scalar is still kept');
  const cut = redactData(nested(9, 'leaf'));
  t.is(dig(cut, 8), '(too deep)', 'the ninth object is replaced');
  t.deepEqual(dig(redactData(nested(8, ['x'])), 8), '(too deep)', 'arrays count as a level too');
});

test('a cycle ends at the depth limit instead of recursing forever', (t) => {
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic['a'] = cyclic;
  const out = redactData(cyclic);
  t.is(dig(out, 8), '(too deep)');
  t.is((dig(out, 7) as Record<string, unknown>)['name'], 'loop');
});

test('arrays and objects keep at most 200 items', (t) => {
  const array = Array.from({ length: 250 }, (_, i) => i);
  t.deepEqual(redactData(array), array.slice(0, 200));
  const object = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, i]));
  const out = redactData(object) as Record<string, unknown>;
  t.is(Object.keys(out).length, 200);
  t.is(out['k199'], 199);
  t.false('k200' in out);
});

test('values JSON cannot hold are stringified', (t) => {
  const out = redactData({ missing: undefined, big: 10n, symbol: Symbol('s'), fn: function named() {} }) as Record<string, unknown>;
  t.is(out['missing'], 'undefined');
  t.is(out['big'], '10');
  t.is(out['symbol'], 'Symbol(s)');
  t.is(typeof out['fn'], 'string');
  t.is(redactData(undefined), 'undefined');
  // The copy survives JSON, which is how the profile is stored.
  t.notThrows(() => JSON.stringify(out));
});

test('arrays are copied item by item and redacted inside', (t) => {
  const input = ['a', 1, null, { password: 'p' }, ['b', { token: 't' }]];
  const out = redactData(input);
  t.deepEqual(out, ['a', 1, null, { password: REDACTED }, ['b', { token: REDACTED }]]);
  t.not(out, input);
});
