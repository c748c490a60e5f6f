import test from 'ava';
import { REDACTED, RedactionPolicy } from '../../../src/profiler/collect/redaction-policy';

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

test('names are matched by part, whatever their case and separators', (t) => {
  const secret = ['password', 'PASSWORD', '_password', 'user[password]', 'new-password', 'passwd', 'pwd', 'pass', 'client_secret', 'token', 'accessToken', 'X-Auth-Token',
    'api_key', 'api-key', 'apiKey', 'APIKEY', 'x-apikey', 'key', 'private_key', 'auth', 'oauth2', 'Authorization', 'sessionid', 'PHPSESSID', 'session', 'sig', 'signature',
    'credentials', 'private', 'access', 'jwt', 'csrf_token', '_csrf', 'XSRF-TOKEN', 'cookie', 'otp'];
  for (const name of secret) t.true(policy.isSecretName(name), name);
});

test('words that only contain a short secret word are not secret: keywords, monkey, passenger, author, accessibility', (t) => {
  const plain = ['keywords', 'keyboard', 'monkey', 'passenger', 'bypass', 'author', 'authors', 'accessibility', 'accessed', 'signal', 'design', 'q', 'page', 'name', 'theme', 'remember_me', 'Content-Type', 'Referer'];
  for (const name of plain) t.false(policy.isSecretName(name), name);
});

test('extra names (PROFILER_REDACT) match whole parts, several parts in a row, or with * inside a part', (t) => {
  const extra = new RedactionPolicy({ names: ['ssn', 'card-number', '*iban*'] });
  for (const name of ['ssn', 'user_ssn', 'SSN', 'cardNumber', 'card_number', 'X-Card-Number', 'cardnumber', 'iban', 'myIBANs', 'payee_iban_code']) t.true(extra.isSecretName(name), name);
  for (const name of ['lessons', 'card', 'number', 'card_type_number']) t.false(extra.isSecretName(name), name);
  t.false(policy.isSecretName('ssn'), 'not a built-in name');
});

test('an invalid extra name is refused when the policy is made', (t) => {
  t.throws(() => new RedactionPolicy({ names: ['card number'] }), { message: /^Invalid redaction name "card number": expected letters and digits/ });
});

test('headers are secret by name pattern, besides Authorization, Proxy-Authorization, Cookie and Set-Cookie', (t) => {
  const named = ['X-Api-Key', 'X-Auth-Token', 'Api-Key', 'X-Access-Token', 'X-Amz-Security-Token', 'Private-Token', 'X-CSRF-Token', 'X-Session-Id', 'Sec-WebSocket-Key', 'X-Api-Keys', 'Authentication', 'X-Bearer'];
  const out = policy.headers(Object.fromEntries(named.map((name) => [name, 'v'])));
  t.deepEqual(Object.values(out), named.map(() => REDACTED));
});

test("Loupe's own token headers and the CORS headers are named like secrets but kept", (t) => {
  const kept = {
    'X-Debug-Token': 'a1b2c3',
    'X-Debug-Token-Link': 'http://127.0.0.1:8000/_profiler/a1b2c3',
    'X-Previous-Debug-Token': 'd4e5f6',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Request-Headers': 'x-api-key',
  };
  t.deepEqual(policy.headers(kept), kept);
});

test('the URLs in header values lose their secret query values: Referer, Location', (t) => {
  t.deepEqual(policy.headers({ Referer: 'http://a.test/p?token=t1&page=2', Location: ['/next?password=p1#top'] }), {
    Referer: `http://a.test/p?token=${REDACTED}&page=2`,
    Location: [`/next?password=${REDACTED}#top`],
  });
});

test('text: the values of secret-named query parameters are replaced wherever a URL appears in it', (t) => {
  t.is(policy.text('http://h.test/a?token=t1&q=kept&api_key=k1'), `http://h.test/a?token=${REDACTED}&q=kept&api_key=${REDACTED}`);
  t.is(
    policy.text('No route found for "GET http://h.test/x?password=p1" (from "http://r.test/?sig=s1&from=home")'),
    `No route found for "GET http://h.test/x?password=${REDACTED}" (from "http://r.test/?sig=${REDACTED}&from=home")`,
  );
  t.is(policy.text('/p?user%5Bpassword%5D=p1&empty_token='), `/p?user%5Bpassword%5D=${REDACTED}&empty_token=`, 'encoded names are decoded; an empty value stays empty');
  t.is(policy.text('sessionid=abc; theme=dark'), `sessionid=${REDACTED}; theme=dark`, 'a cookie line too');
  t.is(policy.text('plain words, no pairs'), 'plain words, no pairs');
});

test('text: a name before any `=` is looked at, as the pair patterns see it: at the start, after a separator, at the end, after an empty value', (t) => {
  t.is(policy.text('token=t1'), `token=${REDACTED}`);
  t.is(policy.text('a=1;b=2;password=p1'), `a=1;b=2;password=${REDACTED}`);
  t.is(policy.text('empty=&secret=s1'), `empty=&secret=${REDACTED}`);
  t.is(policy.text('kernel.request;dur=0.142, controller;dur=0.020;desc="hello.hello", total;dur=0.491'), 'kernel.request;dur=0.142, controller;dur=0.020;desc="hello.hello", total;dur=0.491');
  t.is(policy.text('a=x,password=p1'), 'a=x,password=p1', "inside another pair's value, as before");
  t.is(policy.text('Grüße ключ=1 token=t1'), `Grüße ключ=1 token=${REDACTED}`, 'after letters outside ASCII');
});

test('text: a URL password and a JSON secret quoted in a message are replaced', (t) => {
  t.is(policy.text('redis://user:p4ss@cache.test:6379/0'), `redis://user:${REDACTED}@cache.test:6379/0`);
  t.is(policy.text('http://127.0.0.1:8000/path'), 'http://127.0.0.1:8000/path', 'a port is not a password');
  t.is(policy.text('Unexpected end of {"user":"anna","password":"hunter2","nested":{"token": 12'), `Unexpected end of {"user":"anna","password":"${REDACTED}","nested":{"token": "${REDACTED}"`);
});

test('text: a secret inside an encoded URL is found and the value encoded again', (t) => {
  t.is(policy.text('/login?next=%2Faccount%3Ftoken%3Dt1%26tab%3D2'), `/login?next=${encodeURIComponent(`/account?token=${REDACTED}&tab=2`)}`);
  const header = 'No%20route%20found%20for%20%22GET%20http%3A%2F%2Fh.test%2Fx%3Fpassword%3Dp1%22';
  t.is(decodeURIComponent(policy.text(header)), `No route found for "GET http://h.test/x?password=${REDACTED}"`, 'an X-Debug-Exception header');
  t.is(policy.text('/a%20b?q=100%'), '/a%20b?q=100%', 'nothing secret: left exactly as it was, a stray % too');
});

test('data: string values are redacted as text too', (t) => {
  t.deepEqual(policy.data({ request_uri: 'http://h.test/?token=t1', note: 'x' }), { request_uri: `http://h.test/?token=${REDACTED}`, note: 'x' });
});

test('entry: every string at any depth is redacted as text; keys and other values are kept', (t) => {
  const input = { token: 'a1b2c3', list: [{ url: 'http://h.test/?token=t1' }, 3, null, true], deep: { deeper: { message: 'from "http://r.test/?sig=s"' } }, at: new Date(0) };
  t.deepEqual(policy.entry(input), {
    token: 'a1b2c3',
    list: [{ url: `http://h.test/?token=${REDACTED}` }, 3, null, true],
    deep: { deeper: { message: `from "http://r.test/?sig=${REDACTED}"` } },
    at: '1970-01-01T00:00:00.000Z',
  });
});

test('entry: an entry with nothing to redact is not copied; only the branches that change are', (t) => {
  const clean = { phases: [{ name: 'kernel.request', start: 0, duration: 1 }], controller: 'hello.hello' };
  t.is(policy.entry(clean), clean);
  const mixed = { kept: { a: [1, 2] }, changed: { url: 'http://h.test/?token=t1' } };
  const out = policy.entry(mixed) as typeof mixed;
  t.is(out.kept, mixed.kept);
  t.not(out.changed, mixed.changed);
  t.is(mixed.changed.url, 'http://h.test/?token=t1', 'the input is left alone');
});

test('entry: a field copied after a later one changed is redacted again, so a getter that answers a secret on its second reading leaks nothing', (t) => {
  let readings = 0;
  const entry = {
    get first(): string {
      readings += 1;
      return readings === 1 ? 'plain' : 'http://h.test/?token=second-reading';
    },
    second: 'http://h.test/?token=t2',
  };
  const out = policy.entry(entry) as Record<string, unknown>;
  t.deepEqual(Object.keys(out), ['first', 'second']);
  t.false(JSON.stringify(out).includes('second-reading'));
  t.is(out['second'], `http://h.test/?token=${REDACTED}`);
});

test('entry: a `__proto__` field of a copied entry stays a field, the copy keeps Object.prototype', (t) => {
  const entry = JSON.parse('{"__proto__": {"url": "http://h.test/?token=t1"}, "kept": 1}') as object;
  const out = policy.entry(entry) as Record<string, unknown>;
  t.is(Object.getPrototypeOf(out), Object.prototype);
  t.is(JSON.stringify(out), `{"__proto__":{"url":"http://h.test/?token=${REDACTED}"},"kept":1}`);
});

test('text: the same text gives the same answer every time, a secret-free one with `=` kept whole, a secret replaced each time', (t) => {
  const fresh = new RedactionPolicy();
  const clean = 'text/html,application/xml;q=0.9,*/*;q=0.8';
  const secret = 'http://h.test/?q=1&token=abc';
  for (let i = 0; i < 3; i++) {
    t.is(fresh.text(clean), clean);
    t.is(fresh.text(secret), `http://h.test/?q=1&token=${REDACTED}`);
  }
});
