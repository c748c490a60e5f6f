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
