import test from 'ava';
import { escapeHtml } from '../../src/view/escape-html';

test('escapes & < > and double quotes, keeps single quotes (ENT_COMPAT)', (t) => {
  t.is(escapeHtml(`<script>alert("x" & 'y')</script>`), `&lt;script&gt;alert(&quot;x&quot; &amp; 'y')&lt;/script&gt;`);
  t.is(escapeHtml('No route found for "GET http://localhost:8000/foo"'), 'No route found for &quot;GET http://localhost:8000/foo&quot;');
});

test("an existing entity is escaped again, as PHP's default double_encode", (t) => {
  t.is(escapeHtml('&amp;'), '&amp;amp;');
});

test('lone surrogates become U+FFFD (ENT_SUBSTITUTE); valid pairs stay', (t) => {
  t.is(escapeHtml('a\uD800b\uDC00c'), 'a\uFFFDb\uFFFDc');
  t.is(escapeHtml('😀 é'), '😀 é');
});

test('text with nothing to escape comes back as it is, whatever its length', (t) => {
  const plain = `${'kernel.request listener 12.5 ms /hello/anna '.repeat(100)}'single'`;
  t.is(escapeHtml(plain), plain);
  t.is(escapeHtml(''), '');
});

test('escaping and surrogates together: each special character escaped, a lone surrogate replaced, a pair kept', (t) => {
  t.is(escapeHtml('<a title="😀">\uD800</a> & b'), '&lt;a title=&quot;😀&quot;&gt;\uFFFD&lt;/a&gt; &amp; b');
});
