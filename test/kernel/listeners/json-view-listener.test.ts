import test from 'ava';
import { LoupeResponse } from '../../../src/http/response';
import { type Exchange } from '../../../src/kernel/exchange';
import { ListenerRegistry } from '../../../src/kernel/listener-registry';
import { jsonViewListener as viewListener } from '../../../src/kernel/listeners/json-view-listener';
import { exchangeFor } from '../../helpers/request-data';
import { runPhaseSync } from '../../helpers/run-phase';

function view(result: unknown): Exchange {
  const exchange = exchangeFor();
  exchange.controllerResult = result;
  runPhaseSync(viewListener, 'kernel.view', exchange);
  return exchange;
}

test('it is the JsonViewListener on kernel.view (0) only', (t) => {
  t.is(viewListener.name, 'JsonViewListener');
  t.deepEqual(Object.keys(viewListener.subscriptions), ['kernel.view']);
  t.deepEqual(
    new ListenerRegistry([viewListener]).for('kernel.view').map(({ priority }) => priority),
    [0],
  );
});

test('data returned by the controller becomes a 200 JSON response', (t) => {
  const response = view({ name: 'Jürgen', tags: [1, 2] }).response;
  if (response === null) return t.fail('no response');
  t.is(response.status, 200);
  t.is(response.body, '{"name":"J\\u00fcrgen","tags":[1,2]}');
  t.deepEqual(response.headers.toJSON(), { 'Content-Type': 'application/json' });
});

test('falsy data other than null is still data', (t) => {
  t.is(view(0).response?.body, '0');
  t.is(view(false).response?.body, 'false');
  t.is(view('').response?.body, '""');
});

test('undefined or null gives no response, so the kernel can say the controller returned nothing', (t) => {
  t.is(view(undefined).response, null);
  t.is(view(null).response, null);
});

test('a response already set is kept', (t) => {
  const exchange = exchangeFor();
  const existing = new LoupeResponse('set by another listener');
  exchange.response = existing;
  exchange.controllerResult = { ignored: true };
  runPhaseSync(viewListener, 'kernel.view', exchange);
  t.is(exchange.response, existing);
  t.is(existing.body, 'set by another listener');
});
