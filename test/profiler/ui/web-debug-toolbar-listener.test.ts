import test from 'ava';
import { LoupeRequest } from '../../../src/http/request';
import { type RequestData } from '../../../src/http/request-data';
import { LoupeResponse } from '../../../src/http/response';
import { Exchange } from '../../../src/kernel/exchange';
import { defineListener } from '../../../src/kernel/listener';
import { ListenerRegistry } from '../../../src/kernel/listener-registry';
import { responseListener } from '../../../src/kernel/listeners/response-listener';
import { renderToolbarSnippet } from '../../../src/profiler/ui/toolbar/toolbar-snippet';
import { toolbarAssetPath } from '../../../src/profiler/ui/toolbar/toolbar-assets';
import { createWebDebugToolbarListener } from '../../../src/profiler/ui/web-debug-toolbar-listener';
import { exchangeFor, requestData } from '../../helpers/request-data';
import { runPhaseSync } from '../../helpers/run-phase';

// The listener alone, on responses a live server cannot be made to send on demand (a Buffer
// body, upper-case tags, a token the profiler did not set). The HTTP behaviour is in
// web-debug-toolbar-http.test.ts.

const PAGE = '<!DOCTYPE html><html><body><p>Hi</p></body></html>';
const toolbar = createWebDebugToolbarListener(['127.0.0.0/8']);

/** Stands in for the ProfilerListener, which sets the token at -100. */
const tokenSetter = (token: string) => defineListener('TokenSetter', { 'kernel.response': [-100, ({ response }) => void response.headers.set('X-Debug-Token', token)] });

function respond(response: LoupeResponse, overrides: Partial<RequestData> = {}, token = 'a1b2c3', exchange = exchangeFor(overrides)): Exchange {
  exchange.response = response;
  runPhaseSync([responseListener, tokenSetter(token), toolbar], 'kernel.response', exchange);
  return exchange;
}

const bodyOf = (exchange: Exchange): string => String(exchange.requireResponse().body);

test('it is the WebDebugToolbarListener on kernel.response at -128, after the profiler set the token and the length', (t) => {
  t.deepEqual(
    new ListenerRegistry([toolbar, tokenSetter('a1b2c3'), responseListener]).for('kernel.response').map((listener) => [listener.name, listener.priority]),
    [
      ['ResponseListener', 0],
      ['TokenSetter', -100],
      ['WebDebugToolbarListener', -128],
    ],
  );
});

test('the toolbar goes before the last </body>, in any letter case, and Content-Length follows', (t) => {
  const page = '<html><BODY><pre>&lt;/body&gt; </body> in text</pre></Body></HTML>';
  const exchange = respond(new LoupeResponse(page, 200, { 'Content-Type': 'text/html' }));
  const body = bodyOf(exchange);
  const at = body.indexOf('<div id="loupe-wdt-a1b2c3"');
  t.true(at > page.indexOf('in text'), 'after the text that names the tag');
  t.true(body.endsWith('</script>\n</Body></HTML>'));
  t.is(exchange.requireResponse().headers.get('Content-Length'), String(Buffer.byteLength(body)));
});

test('the snippet is ASCII, with a nonce or without: the listener counts its characters as its bytes', (t) => {
  for (const nonce of [null, 'q8Zx+/AbCdEfGhIjKlMnOp==']) t.regex(renderToolbarSnippet('a1b2c3', nonce), /^[\x00-\x7f]*$/);
});

test('a page with a Content-Security-Policy gets the toolbar with a nonce, and Content-Length follows', (t) => {
  const exchange = respond(new LoupeResponse(PAGE, 200, { 'Content-Type': 'text/html', 'Content-Security-Policy': "script-src 'self'" }));
  const body = bodyOf(exchange);
  t.regex(body, /<script src="\/_wdt\/assets\/toolbar\.[0-9a-f]{12}\.js" nonce="[^"]+"><\/script>/);
  t.is(exchange.requireResponse().headers.get('Content-Length'), String(Buffer.byteLength(body)));
});

test('a Buffer body gets the toolbar too, its bytes around it untouched', (t) => {
  const page = Buffer.from('<html><body>Grüße aus Köln</body></html>', 'utf8');
  const exchange = respond(new LoupeResponse(page, 200, { 'Content-Type': 'text/html; charset=UTF-8' }));
  const body = exchange.requireResponse().body;
  if (!Buffer.isBuffer(body)) return t.fail('The page is no longer a Buffer.');
  const text = body.toString('utf8');
  t.true(text.startsWith(`<html><body>Grüße aus Köln\n<link rel="stylesheet" href="${toolbarAssetPath('css')}">`));
  t.true(text.endsWith('</script>\n</body></html>'));
  t.is(exchange.requireResponse().headers.get('Content-Length'), String(body.length));
});

test('nothing is injected where the kernel would not: sub-requests, no </body>, a token the profiler did not set', (t) => {
  const parent = exchangeFor();
  const sub = new Exchange(new LoupeRequest(requestData(), 'en'), parent);
  sub.response = new LoupeResponse(PAGE);
  runPhaseSync([tokenSetter('a1b2c3'), toolbar], 'kernel.response', sub);
  t.is(bodyOf(sub), PAGE, 'a sub-request: its parent gets the toolbar');
  t.is(bodyOf(respond(new LoupeResponse('<p>no end tag</p>'))), '<p>no end tag</p>');
  t.is(bodyOf(respond(new LoupeResponse(PAGE), {}, '"><script>alert(1)</script>')), PAGE);
});

test('X-Debug-Toolbar: off keeps the toolbar out; the header is removed, and an unknown value is logged', (t) => {
  const off = respond(new LoupeResponse(PAGE, 200, { 'X-Debug-Toolbar': ' OFF ' }));
  t.is(bodyOf(off), PAGE);
  t.false(off.requireResponse().headers.has('X-Debug-Toolbar'));
  const unknown = respond(new LoupeResponse(PAGE, 200, { 'X-Debug-Toolbar': 'no' }));
  t.true(bodyOf(unknown).includes('loupe-wdt-a1b2c3'));
  t.false(unknown.requireResponse().headers.has('X-Debug-Toolbar'));
  t.deepEqual(
    unknown.trace.logs.map((log) => [log.level, log.message]),
    [['warning', 'The response header X-Debug-Toolbar has the unknown value "no": only "off" is understood; the toolbar was injected.']],
  );
});

test('a client outside the profiler\'s addresses gets no toolbar: its content would be refused to it', (t) => {
  t.is(bodyOf(respond(new LoupeResponse(PAGE), { remoteAddress: '10.1.2.3' })), PAGE);
  t.true(bodyOf(respond(new LoupeResponse(PAGE), { remoteAddress: '127.0.0.1' })).includes('loupe-wdt-a1b2c3'));
  t.true(bodyOf(respond(new LoupeResponse(PAGE), { remoteAddress: '127.0.0.1' })).includes('loupe-wdt-a1b2c3'), 'the same client again');
  t.is(bodyOf(respond(new LoupeResponse(PAGE), { remoteAddress: '10.1.2.3' })), PAGE, 'after an allowed client, one outside is still refused');
});

test('with a Content-Security-Policy the script and stylesheet carry the nonce the policy names', (t) => {
  const exchange = respond(new LoupeResponse(PAGE, 200, { 'Content-Security-Policy': "default-src 'self'" }));
  const policy = exchange.requireResponse().headers.get('Content-Security-Policy') ?? '';
  const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]{24})'/.exec(policy)?.[1];
  if (nonce === undefined) return t.fail(policy);
  t.true(policy.includes(`style-src 'self' 'nonce-${nonce}'`), policy);
  const body = bodyOf(exchange);
  t.true(body.includes(`<link rel="stylesheet" href="${toolbarAssetPath('css')}" nonce="${nonce}">`));
  t.true(body.includes(`<script src="${toolbarAssetPath('js')}" nonce="${nonce}"></script>`));
  const other = respond(new LoupeResponse(PAGE, 200, { 'Content-Security-Policy': "default-src 'self'" }));
  t.false((other.requireResponse().headers.get('Content-Security-Policy') ?? '').includes(nonce), 'a new nonce for every response');
});
