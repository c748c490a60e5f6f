import test from 'ava';
import { BadRequestHttpError, PayloadTooLargeHttpError } from '../../../src/errors/http-error';
import { Exchange } from '../../../src/kernel/exchange';
import { type PhaseSubscription } from '../../../src/kernel/listener';
import { validateRequestListener } from '../../../src/kernel/listeners/validate-request-listener';
import { exchangeFor } from '../../helpers/request-data';

function subscription(): PhaseSubscription {
  const subscribed = validateRequestListener.subscriptions['kernel.request'];
  if (subscribed === undefined || Array.isArray(subscribed)) throw new Error('expected one kernel.request subscription');
  return subscribed as PhaseSubscription;
}

test('it is the ValidateRequestListener on kernel.request (256) only', (t) => {
  t.is(validateRequestListener.name, 'ValidateRequestListener');
  t.deepEqual(Object.keys(validateRequestListener.subscriptions), ['kernel.request']);
  t.is(subscription().priority, 256);
});

test('a valid request passes', (t) => {
  const exchange = exchangeFor({ headers: { host: 'Example.com:8080' } });
  t.notThrows(() => subscription().handle(exchange));
  t.is(exchange.request.host, 'example.com');
});

test('a body the adapter refused is thrown as it is', (t) => {
  const bodyError = new PayloadTooLargeHttpError(1024);
  const error = t.throws(() => subscription().handle(exchangeFor({ method: 'POST', bodyError })));
  t.is(error, bodyError);
});

test('an invalid Host is a 400', (t) => {
  const exchange = exchangeFor({ headers: { host: 'exa mple.com' } });
  const error = t.throws(() => subscription().handle(exchange), { instanceOf: BadRequestHttpError, message: 'Invalid Host "exa mple.com".' });
  t.is(error?.code, 'LOUPE_ERR_HTTP_INVALID_HOST');
  t.is(error?.statusCode, 400);
});

test('a sub-request is not validated again', (t) => {
  const parent = exchangeFor({ headers: { host: 'exa mple.com' }, bodyError: new PayloadTooLargeHttpError(1) });
  const sub = new Exchange(parent.request.duplicate('GET'), parent, new Error('boom'));
  t.notThrows(() => subscription().handle(sub));
});
