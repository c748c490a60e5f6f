import test from 'ava';
import { REDACTED, RedactionPolicy } from '../../src/profiler/redaction-policy';

const policy = new RedactionPolicy();

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
  const redacted = policy.headers({
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
  const redacted = policy.headers({ 'Set-Cookie': cookies, Vary: vary });
  t.deepEqual(redacted, { 'Set-Cookie': [REDACTED, REDACTED], Vary: ['Accept', 'Cookie'] });
  t.not(redacted['Vary'], vary, 'a copy, not the array the response still holds');
  t.deepEqual(cookies, ['a=1; Path=/', 'b=2; Path=/'], 'the input is left alone');
});

test('every cookie value is replaced unless the cookie is allowed; an allowed one named like a secret, or in the secret set, still is', (t) => {
  const cookies = { LOUPESESSID: 'abc', REMEMBERME: 'def', theme: 'dark', csrf_token: 'ghi', sessionid: 'jkl', PHPSESSID: 'mno', jwt: 'pqr', lang: 'fr' };
  t.deepEqual(policy.cookies(cookies, new Set(['LOUPESESSID', 'REMEMBERME'])), {
    LOUPESESSID: REDACTED,
    REMEMBERME: REDACTED,
    theme: REDACTED,
    csrf_token: REDACTED,
    sessionid: REDACTED,
    PHPSESSID: REDACTED,
    jwt: REDACTED,
    lang: REDACTED,
  });
  const allowing = new RedactionPolicy({ visibleCookies: ['theme', 'lang', 'csrf_token', 'LOUPESESSID'] });
  t.deepEqual(allowing.cookies(cookies, new Set(['LOUPESESSID', 'REMEMBERME'])), {
    LOUPESESSID: REDACTED,
    REMEMBERME: REDACTED,
    theme: 'dark',
    csrf_token: REDACTED,
    sessionid: REDACTED,
    PHPSESSID: REDACTED,
    jwt: REDACTED,
    lang: 'fr',
  });
});

test('the cookie allow-list is exact: a cookie merely resembling an allowed name is replaced', (t) => {
  t.deepEqual(new RedactionPolicy({ visibleCookies: ['theme'] }).cookies({ Theme: 'dark', theme: 'light' }), { Theme: REDACTED, theme: 'light' });
});

test('fields named like password, secret, token, api_key or signature are redacted at any depth', (t) => {
  const input = {
    username: 'anna',
    password: 'hunter2',
    profile: { client_secret: 's', settings: { 'api-key': 'k', apiKey: 'k2', theme: 'dark' } },
    items: [{ token: 't', name: 'first' }, { signature: 'sig', name: 'second' }],
    credentials: { user: 'u' },
  };
  t.deepEqual(policy.data(input), {
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
  const out = policy.data(nested(6, { password: 'hunter2', kept: 1 }));
  t.deepEqual(dig(out, 6), { password: REDACTED, kept: 1 });
});

test('scalars pass through; strings up to 4096 characters are kept whole', (t) => {
  t.is(policy.data(null), null);
  t.is(policy.data(42), 42);
  t.is(policy.data(false), false);
  const exact = 'x'.repeat(4096);
  t.is(policy.data(exact), exact);
});

test('a longer string is cut to 4096 characters with a note of its length', (t) => {
  const long = 'é'.repeat(5000);
  t.is(policy.data(long), `${'é'.repeat(4096)}… (5000 characters)`);
  t.deepEqual(policy.data({ text: 'y'.repeat(4097) }), { text: `${'y'.repeat(4096)}… (4097 characters)` });
});

test('nesting is cut at depth 8 with a marker', (t) => {
  const kept = policy.data(nested(8, 'leaf'));
  t.is(dig(kept, 8), 'leaf', 'eight objects deep, a scalar is still kept');
  const cut = policy.data(nested(9, 'leaf'));
  t.is(dig(cut, 8), '(too deep)', 'the ninth object is replaced');
  t.deepEqual(dig(policy.data(nested(8, ['x'])), 8), '(too deep)', 'arrays count as a level too');
});

test('a cycle ends at the depth limit instead of recursing forever', (t) => {
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic['a'] = cyclic;
  const out = policy.data(cyclic);
  t.is(dig(out, 8), '(too deep)');
  t.is((dig(out, 7) as Record<string, unknown>)['name'], 'loop');
});

test('arrays and objects keep at most 200 items', (t) => {
  const array = Array.from({ length: 250 }, (_, i) => i);
  t.deepEqual(policy.data(array), array.slice(0, 200));
  const object = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`k${i}`, i]));
  const out = policy.data(object) as Record<string, unknown>;
  t.is(Object.keys(out).length, 200);
  t.is(out['k199'], 199);
  t.false('k200' in out);
});

test('values JSON cannot hold are stringified', (t) => {
  const out = policy.data({ missing: undefined, big: 10n, symbol: Symbol('s'), fn: function named() {} }) as Record<string, unknown>;
  t.is(out['missing'], 'undefined');
  t.is(out['big'], '10');
  t.is(out['symbol'], 'Symbol(s)');
  t.is(typeof out['fn'], 'string');
  t.is(policy.data(undefined), 'undefined');
  // The copy survives JSON, which is how the profile is stored.
  t.notThrows(() => JSON.stringify(out));
});

test('arrays are copied item by item and redacted inside', (t) => {
  const input = ['a', 1, null, { password: 'p' }, ['b', { token: 't' }]];
  const out = policy.data(input);
  t.deepEqual(out, ['a', 1, null, { password: REDACTED }, ['b', { token: REDACTED }]]);
  t.not(out, input);
});
