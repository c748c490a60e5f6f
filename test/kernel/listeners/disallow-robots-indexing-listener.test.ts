import test from 'ava';
import { LoupeResponse } from '../../../src/http/response';
import { Exchange } from '../../../src/kernel/exchange';
import { ListenerRegistry } from '../../../src/kernel/listener-registry';
import { disallowRobotsIndexingListener } from '../../../src/kernel/listeners/disallow-robots-indexing-listener';
import { exchangeFor } from '../../helpers/request-data';
import { runPhaseSync } from '../../helpers/run-phase';

function respond(exchange: Exchange, response: LoupeResponse): LoupeResponse {
  exchange.response = response;
  runPhaseSync(disallowRobotsIndexingListener, 'kernel.response', exchange);
  return response;
}

test('it is the DisallowRobotsIndexingListener on kernel.response (-255) only', (t) => {
  t.is(disallowRobotsIndexingListener.name, 'DisallowRobotsIndexingListener');
  t.deepEqual(Object.keys(disallowRobotsIndexingListener.subscriptions), ['kernel.response']);
  t.deepEqual(
    new ListenerRegistry([disallowRobotsIndexingListener]).for('kernel.response').map(({ priority }) => priority),
    [-255],
  );
});

test('a response gets X-Robots-Tag: noindex', (t) => {
  t.deepEqual(respond(exchangeFor(), new LoupeResponse('hello')).headers.getAll('X-Robots-Tag'), ['noindex']);
});

test('an X-Robots-Tag already set is kept, whatever its case', (t) => {
  t.deepEqual(respond(exchangeFor(), new LoupeResponse('', 200, { 'x-robots-tag': 'none' })).headers.toJSON(), { 'x-robots-tag': 'none' });
});

test('a sub-request response gets it too', (t) => {
  const parent = exchangeFor();
  const sub = new Exchange(parent.request.duplicate('GET'), parent, new Error('boom'));
  t.is(respond(sub, new LoupeResponse('error page', 500)).headers.get('X-Robots-Tag'), 'noindex');
});
