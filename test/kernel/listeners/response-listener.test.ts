import test from 'ava';
import { LoupeResponse } from '../../../src/http/response';
import { Exchange } from '../../../src/kernel/exchange';
import { ListenerRegistry } from '../../../src/kernel/listener-registry';
import { responseListener } from '../../../src/kernel/listeners/response-listener';
import { exchangeFor } from '../../helpers/request-data';
import { runPhaseSync } from '../../helpers/run-phase';

/** The headers the listener leaves on `response` for a main request. */
function prepared(response: LoupeResponse): Record<string, string | string[]> {
  const exchange = exchangeFor();
  exchange.response = response;
  runPhaseSync(responseListener, 'kernel.response', exchange);
  return response.headers.toJSON();
}

test('it is the ResponseListener on kernel.response (0) only', (t) => {
  t.is(responseListener.name, 'ResponseListener');
  t.deepEqual(Object.keys(responseListener.subscriptions), ['kernel.response']);
  t.deepEqual(
    new ListenerRegistry([responseListener]).for('kernel.response').map(({ priority }) => priority),
    [0],
  );
});

test('a response without a type is HTML in UTF-8, not cached, with its length', (t) => {
  t.deepEqual(prepared(new LoupeResponse('hello')), {
    'Content-Type': 'text/html; charset=UTF-8',
    'Cache-Control': 'no-cache, private',
    'Content-Length': '5',
  });
});

test('a text type gets a charset; other types and explicit charsets are kept', (t) => {
  t.is(prepared(new LoupeResponse('x', 200, { 'Content-Type': 'text/plain' }))['Content-Type'], 'text/plain; charset=UTF-8');
  t.is(prepared(new LoupeResponse('x', 200, { 'Content-Type': 'text/csv; charset=ISO-8859-1' }))['Content-Type'], 'text/csv; charset=ISO-8859-1');
  t.is(prepared(LoupeResponse.json({ a: 1 }))['Content-Type'], 'application/json');
});

test('with Expires or Last-Modified the response must be revalidated', (t) => {
  t.is(prepared(new LoupeResponse('x', 200, { Expires: 'Thu, 01 Jan 2099 00:00:00 GMT' }))['Cache-Control'], 'private, must-revalidate');
  t.is(prepared(new LoupeResponse('x', 200, { 'Last-Modified': 'Thu, 01 Jan 2015 00:00:00 GMT' }))['Cache-Control'], 'private, must-revalidate');
});

test('a Cache-Control already set is kept', (t) => {
  t.is(prepared(new LoupeResponse('x', 200, { 'cache-control': 'public, max-age=60', Expires: 'Thu, 01 Jan 2099 00:00:00 GMT' }))['cache-control'], 'public, max-age=60');
});

test('Content-Length counts bytes, not characters', (t) => {
  t.is(prepared(new LoupeResponse('é😀'))['Content-Length'], '6');
  t.is(prepared(new LoupeResponse(Buffer.from([0, 1, 2, 3])))['Content-Length'], '4');
  t.is(prepared(new LoupeResponse(''))['Content-Length'], '0');
});

for (const status of [204, 304]) {
  test(`a ${status} loses its body and Content-Type`, (t) => {
    const response = new LoupeResponse('should not be sent', status, { 'Content-Type': 'text/plain' });
    const headers = prepared(response);
    t.is(response.body, '');
    t.false('Content-Type' in headers);
    t.is(headers['Cache-Control'], 'no-cache, private');
  });
}

test('a sub-request response is left untouched', (t) => {
  const parent = exchangeFor();
  const sub = new Exchange(parent.request.duplicate('GET'), parent, new Error('boom'));
  const response = new LoupeResponse('error page', 204, { 'Content-Type': 'text/plain' });
  sub.response = response;
  runPhaseSync(responseListener, 'kernel.response', sub);
  t.is(response.body, 'error page');
  t.deepEqual(response.headers.toJSON(), { 'Content-Type': 'text/plain' });
});
