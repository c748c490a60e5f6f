import test from 'ava';
import { LoupeRequest } from '../../../src/http/request';
import { type RequestData } from '../../../src/http/request-data';
import { LoupeResponse } from '../../../src/http/response';
import { Exchange } from '../../../src/kernel/exchange';
import { defineListener, type Listener } from '../../../src/kernel/listener';
import { ListenerRegistry } from '../../../src/kernel/listener-registry';
import { debugTokenLinkListener } from '../../../src/profiler/ui/debug-token-link-listener';
import { exchangeFor, requestData } from '../../helpers/request-data';
import { runPhaseSync } from '../../helpers/run-phase';

/** Stands in for the ProfilerListener, which sets the token at -100. */
const tokenSetter = defineListener('TokenSetter', {
  'kernel.response': [-100, ({ response }) => void response.headers.set('X-Debug-Token', 'a1b2c3')],
});

/** Runs kernel.response for `exchange` with the link listener registered before the token setter. */
function respond(exchange: Exchange, listeners: readonly Listener[] = [debugTokenLinkListener, tokenSetter]): Exchange {
  runPhaseSync(listeners, 'kernel.response', exchange);
  return exchange;
}

function withResponse(overrides: Partial<RequestData> = {}): Exchange {
  const exchange = exchangeFor(overrides);
  exchange.response = new LoupeResponse('ok');
  return exchange;
}

test('it is the DebugTokenLinkListener on kernel.response at -128, after the profiler set the token', (t) => {
  t.is(debugTokenLinkListener.name, 'DebugTokenLinkListener');
  t.deepEqual(Object.keys(debugTokenLinkListener.subscriptions), ['kernel.response']);
  t.deepEqual(
    new ListenerRegistry([debugTokenLinkListener, tokenSetter]).for('kernel.response').map((l) => [l.name, l.priority]),
    [
      ['TokenSetter', -100],
      ['DebugTokenLinkListener', -128],
    ],
  );
});

test('a response with X-Debug-Token gets the absolute URL of its profile', (t) => {
  const { response } = respond(withResponse({ path: '/hello/anna', query: 'page=2' }));
  t.is(response?.headers.get('X-Debug-Token-Link'), 'http://127.0.0.1:8000/_profiler/a1b2c3');
});

test('the link names the host and port the client addressed, leaving out the default port', (t) => {
  const link = (overrides: Partial<RequestData>): string | undefined => respond(withResponse(overrides)).response?.headers.get('X-Debug-Token-Link');
  t.is(link({ headers: { host: 'loupe.example:8080' } }), 'http://loupe.example:8080/_profiler/a1b2c3');
  t.is(link({ headers: { host: 'loupe.example' } }), 'http://loupe.example/_profiler/a1b2c3', 'a Host without a port means the default one');
  t.is(link({ headers: { host: 'loupe.example:80' } }), 'http://loupe.example/_profiler/a1b2c3');
  t.is(link({ scheme: 'https', headers: { host: 'loupe.example:443' } }), 'https://loupe.example/_profiler/a1b2c3');
  t.is(link({ scheme: 'https', headers: { host: 'Loupe.Example:8443' } }), 'https://loupe.example:8443/_profiler/a1b2c3');
  // Without a Host header: the loopback address and the port the server listens on.
  const withoutHost = new Exchange(new LoupeRequest({ ...requestData({ serverPort: 9000 }), headers: {} }, 'en'));
  withoutHost.response = new LoupeResponse('ok');
  t.is(respond(withoutHost).response?.headers.get('X-Debug-Token-Link'), 'http://127.0.0.1:9000/_profiler/a1b2c3');
});

test('no X-Debug-Token, no link', (t) => {
  const { response } = respond(withResponse(), [debugTokenLinkListener]);
  t.false(response?.headers.has('X-Debug-Token-Link'));
  t.deepEqual(response?.headers.toJSON(), {});
});

test('a token set after the link listener ran gets no link: the order of priorities matters', (t) => {
  const late = defineListener('Late', {
    'kernel.response': [-200, ({ response }) => void response.headers.set('X-Debug-Token', 'a1b2c3')],
  });
  const { response } = respond(withResponse(), [debugTokenLinkListener, late]);
  t.is(response?.headers.get('X-Debug-Token'), 'a1b2c3');
  t.false(response?.headers.has('X-Debug-Token-Link'));
});

test('an error sub-request response with a token gets its link too', (t) => {
  const main = exchangeFor({ path: '/fail' });
  const sub = main.createErrorSubRequest(new Error('boom'), { name: 'error_controller', handle: () => null });
  sub.response = new LoupeResponse('error', 500);
  respond(sub);
  t.is(sub.response.headers.get('X-Debug-Token-Link'), 'http://127.0.0.1:8000/_profiler/a1b2c3');
});
