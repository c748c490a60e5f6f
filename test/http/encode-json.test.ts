import test from 'ava';
import { encodeJson } from '../../src/http/encode-json';

test('<, >, &, \' and " inside strings are hex escapes, as JsonResponse encodes them', (t) => {
  t.is(encodeJson({ html: `<a href="x">Tom & Jerry's</a>` }), '{"html":"\\u003Ca href=\\u0022x\\u0022\\u003ETom \\u0026 Jerry\\u0027s\\u003C\\/a\\u003E"}');
  t.is(encodeJson({ a: [1, 'b'] }), '{"a":[1,"b"]}');
});

test('an escaped backslash before a quote stays a backslash; every value comes back unchanged', (t) => {
  t.is(encodeJson('a\\'), '"a\\\\"');
  t.is(encodeJson(['\\"', '\\<']), '["\\\\\\u0022","\\\\\\u003C"]');
  const alphabet = ['<', '>', '&', "'", '"', '\\', 'a', '\n', 'é', '\u2028', '/'];
  for (let seed = 1; seed <= 500; seed++) {
    let text = '';
    for (let i = 0, n = seed; i < 12; i++, n = (n * 7919 + 13) % 104729) text += alphabet[n % alphabet.length];
    const value = { [text]: [text, { nested: text }] };
    const encoded = encodeJson(value);
    t.deepEqual(JSON.parse(encoded), value, text);
    t.false(/[<>&']/.test(encoded), encoded);
  }
});

test('/ is \\/ and non-ASCII is \\uXXXX in lower case, astral characters as two surrogates, as json_encode writes them', (t) => {
  t.is(encodeJson({ url: 'http://a.example/b', name: 'Zoë', emoji: '😀', sep: '\u2028' }), '{"url":"http:\\/\\/a.example\\/b","name":"Zo\\u00eb","emoji":"\\ud83d\\ude00","sep":"\\u2028"}');
  t.is(encodeJson('\\/'), '"\\\\\\/"');
  t.deepEqual(JSON.parse(encodeJson({ 'é/': ['😀/<'] })), { 'é/': ['😀/<'] });
});
