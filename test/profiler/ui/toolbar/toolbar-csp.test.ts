import test from 'ava';
import { HeaderBag } from '../../../../src/http/header-bag';
import { allowToolbarInCsp } from '../../../../src/profiler/ui/toolbar/toolbar-csp';

const NONCE = 'bm9uY2U=';

function allow(headers: Record<string, string>): { nonce: string | null; headers: HeaderBag } {
  const bag = new HeaderBag(headers);
  return { nonce: allowToolbarInCsp(bag, () => NONCE), headers: bag };
}

test('without a policy nothing changes and no nonce is made', (t) => {
  let made = 0;
  const bag = new HeaderBag({ 'Content-Type': 'text/html' });
  t.is(
    allowToolbarInCsp(bag, () => {
      made += 1;
      return NONCE;
    }),
    null,
  );
  t.is(made, 0);
  t.deepEqual(bag.toJSON(), { 'Content-Type': 'text/html' });
});

test("default-src 'none' gets script-src and style-src with the nonce alone, and connect-src 'self'", (t) => {
  const { nonce, headers } = allow({ 'Content-Security-Policy': "default-src 'none'; img-src 'self'" });
  t.is(nonce, NONCE);
  t.is(headers.get('Content-Security-Policy'), `default-src 'none'; img-src 'self'; script-src 'nonce-${NONCE}'; style-src 'nonce-${NONCE}'; connect-src 'self'`);
});

test("default-src 'self' is copied into the script and style directives; connect-src already allows 'self'", (t) => {
  const { headers } = allow({ 'Content-Security-Policy': "default-src 'self' https://cdn.example" });
  t.is(headers.get('Content-Security-Policy'), `default-src 'self' https://cdn.example; script-src 'self' https://cdn.example 'nonce-${NONCE}'; style-src 'self' https://cdn.example 'nonce-${NONCE}'`);
});

test("a directive that allows inline code is left alone: a nonce would switch the page's own 'unsafe-inline' off", (t) => {
  const { headers } = allow({ 'Content-Security-Policy': "script-src 'self'; style-src 'self' 'unsafe-inline'" });
  t.is(headers.get('Content-Security-Policy'), `script-src 'self' 'nonce-${NONCE}'; style-src 'self' 'unsafe-inline'`);
});

test("'unsafe-inline' beside a nonce, hash or 'strict-dynamic' does not count: the toolbar's nonce is added", (t) => {
  const { headers } = allow({ 'Content-Security-Policy': "script-src 'unsafe-inline' 'nonce-abc' 'strict-dynamic'; style-src 'unsafe-inline' 'sha256-xyz='" });
  t.is(headers.get('Content-Security-Policy'), `script-src 'unsafe-inline' 'nonce-abc' 'strict-dynamic' 'nonce-${NONCE}'; style-src 'unsafe-inline' 'sha256-xyz=' 'nonce-${NONCE}'`);
});

test('the -elem directives get the nonce when present and are never created', (t) => {
  const { headers } = allow({ 'Content-Security-Policy': "script-src-elem 'self'; style-src-elem 'none'; default-src 'self'" });
  t.is(
    headers.get('Content-Security-Policy'),
    `script-src-elem 'self' 'nonce-${NONCE}'; style-src-elem 'nonce-${NONCE}'; default-src 'self'; script-src 'self' 'nonce-${NONCE}'; style-src 'self' 'nonce-${NONCE}'`,
  );
});

test('a policy that restricts nothing the toolbar uses is sent as it was', (t) => {
  const policy = "frame-ancestors 'none';  img-src data:";
  t.is(allow({ 'Content-Security-Policy': policy }).headers.get('Content-Security-Policy'), policy);
});

test('report-only policies, repeated headers and comma-separated policy lists are each rewritten', (t) => {
  const bag = new HeaderBag({ 'Content-Security-Policy-Report-Only': "script-src 'none'" });
  bag.append('content-security-policy', "script-src 'self'");
  bag.append('content-security-policy', "img-src 'self', connect-src 'none'");
  t.is(allowToolbarInCsp(bag, () => NONCE), NONCE);
  t.is(bag.get('Content-Security-Policy-Report-Only'), `script-src 'nonce-${NONCE}'`);
  t.deepEqual(bag.getAll('Content-Security-Policy'), [`script-src 'self' 'nonce-${NONCE}'`, `img-src 'self',connect-src 'self'`]);
});

test('directive names are case-insensitive and only the first of a repeated one counts', (t) => {
  const { headers } = allow({ 'Content-Security-Policy': "SCRIPT-SRC 'self'; script-src 'unsafe-inline'" });
  t.is(headers.get('Content-Security-Policy'), `script-src 'self' 'nonce-${NONCE}'`);
});
