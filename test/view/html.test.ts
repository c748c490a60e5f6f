import test from 'ava';
import { html, trustedHtml } from '../../src/view/html';

test('interpolated strings are escaped; the template itself is not', (t) => {
  const url = '/<script>alert("x")</script>';
  t.is(html`<a href="${url}">${url}</a>`.toString(), '<a href="/&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">/&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</a>');
});

test('nested templates and arrays are kept as markup, their own values escaped once', (t) => {
  const items = ['<b>', 'a&b'].map((item) => html`<li>${item}</li>`);
  t.is(html`<ul>${items}</ul>`.toString(), '<ul><li>&lt;b&gt;</li><li>a&amp;b</li></ul>');
});

test('null, undefined and booleans render nothing; numbers render as text', (t) => {
  t.is(html`[${null}${undefined}${false}${true}${0}${1.5}]`.toString(), '[01.5]');
});

test('only trustedHtml passes markup through unescaped', (t) => {
  t.is(html`<style>${trustedHtml('a > b { }')}</style>`.toString(), '<style>a > b { }</style>');
  t.is(html`<style>${'a > b { }'}</style>`.toString(), '<style>a &gt; b { }</style>');
});
