import test from 'ava';
import { Response } from '../../../src/http/response';
import { Exchange } from '../../../src/kernel/exchange';
import { type PhaseSubscription } from '../../../src/kernel/listener';
import { disallowRobotsIndexingListener } from '../../../src/kernel/listeners/disallow-robots-indexing-listener';
import { exchangeFor } from '../../helpers/request-data';

function subscription(): PhaseSubscription {
  const subscribed = disallowRobotsIndexingListener.subscriptions['kernel.response'];
  if (subscribed === undefined || Array.isArray(subscribed)) throw new Error('expected one kernel.response subscription');
  return subscribed as PhaseSubscription;
}

function respond(exchange: Exchange, response: Response): Response {
  exchange.response = response;
  subscription().handle(exchange);
  return response;
}

test('it is the DisallowRobotsIndexingListener on kernel.response (-255) only', (t) => {
  t.is(disallowRobotsIndexingListener.name, 'DisallowRobotsIndexingListener');
  t.deepEqual(Object.keys(disallowRobotsIndexingListener.subscriptions), ['kernel.response']);
  t.is(subscription().priority, -255);
});

test('a response gets X-Robots-Tag: noindex', (t) => {
  t.deepEqual(respond(exchangeFor(), new Response('hello')).headers.getAll('X-Robots-Tag'), ['noindex']);
});

test('an X-Robots-Tag already set is kept, whatever its case', (t) => {
  t.deepEqual(respond(exchangeFor(), new Response('', 200, { 'x-robots-tag': 'none' })).headers.toJSON(), { 'x-robots-tag': 'none' });
});

test('a sub-request response gets it too', (t) => {
  const parent = exchangeFor();
  const sub = new Exchange(parent.request.duplicate('GET'), parent, new Error('boom'));
  t.is(respond(sub, new Response('error page', 500)).headers.get('X-Robots-Tag'), 'noindex');
});

test('without a response nothing happens', (t) => {
  const exchange = exchangeFor();
  t.notThrows(() => subscription().handle(exchange));
  t.is(exchange.response, null);
});
