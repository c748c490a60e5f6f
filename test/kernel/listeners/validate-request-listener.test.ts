import test from 'ava';
import { BadRequestHttpError, PayloadTooLargeHttpError } from '../../../src/errors/http-error';
import { Exchange } from '../../../src/kernel/exchange';
import { ListenerRegistry } from '../../../src/kernel/listener-registry';
import { validateRequestListener } from '../../../src/kernel/listeners/validate-request-listener';
import { exchangeFor } from '../../helpers/request-data';
import { runPhaseSync } from '../../helpers/run-phase';

function validate(exchange: Exchange): void {
  runPhaseSync(validateRequestListener, 'kernel.request', exchange);
}

test('it is the ValidateRequestListener on kernel.request (256) only', (t) => {
  t.is(validateRequestListener.name, 'ValidateRequestListener');
  t.deepEqual(Object.keys(validateRequestListener.subscriptions), ['kernel.request']);
  t.deepEqual(
    new ListenerRegistry([validateRequestListener]).for('kernel.request').map(({ priority }) => priority),
    [256],
  );
});

test('a valid request passes', (t) => {
  const exchange = exchangeFor({ headers: { host: 'Example.com:8080' } });
  t.notThrows(() => validate(exchange));
  t.is(exchange.request.host, 'example.com');
});

test('a body the adapter refused is thrown as it is', (t) => {
  const bodyError = new PayloadTooLargeHttpError(1024);
  const error = t.throws(() => validate(exchangeFor({ method: 'POST', bodyError })));
  t.is(error, bodyError);
});

test('an invalid Host is a 400', (t) => {
  const exchange = exchangeFor({ headers: { host: 'exa mple.com' } });
  const error = t.throws(() => validate(exchange), { instanceOf: BadRequestHttpError, message: 'Invalid Host "exa mple.com".' });
  t.is(error?.code, 'LOUPE_ERR_HTTP_INVALID_HOST');
  t.is(error?.statusCode, 400);
});

test('a sub-request is not validated again', (t) => {
  const parent = exchangeFor({ headers: { host: 'exa mple.com' }, bodyError: new PayloadTooLargeHttpError(1) });
  const sub = new Exchange(parent.request.duplicate('GET'), parent, new Error('boom'));
  t.notThrows(() => validate(sub));
});
