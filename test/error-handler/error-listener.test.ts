import test from 'ava';
import { type FlatError } from '../../src/error-handler/flatten-error';
import { BadRequestHttpError, HttpError, NotFoundHttpError } from '../../src/errors/http-error';
import { LoupeError } from '../../src/errors/loupe-error';
import { Exchange } from '../../src/kernel/exchange';
import { LoupeRequest } from '../../src/http/request';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { createErrorListener } from '../../src/error-handler/error-listener';
import { exchangeFor, requestData } from '../helpers/request-data';
import { runPhaseSync } from '../helpers/run-phase';

function handle(error: unknown): Exchange {
  const exchange = exchangeFor({ path: '/config.yaml' });
  exchange.handlingError = error;
  runPhaseSync(createErrorListener(), 'kernel.exception', exchange);
  return exchange;
}

test('it is the ErrorListener on kernel.exception at priority 0, and nowhere else', (t) => {
  const listener = createErrorListener();
  t.is(listener.name, 'ErrorListener');
  t.deepEqual(Object.keys(listener.subscriptions), ['kernel.exception']);
  t.deepEqual(
    new ListenerRegistry([listener]).for('kernel.exception').map(({ priority }) => priority),
    [0],
  );
});

test('a 4xx HttpError is logged at error level with class, message, file basename and line', (t) => {
  const error = new NotFoundHttpError('No route found for "GET http://127.0.0.1:8000/config.yaml"');
  const [log, ...rest] = handle(error).trace.logs;
  t.is(rest.length, 0);
  t.is(log?.level, 'error');
  t.regex(
    log?.message ?? '',
    /^Uncaught Exception NotFoundHttpError: "No route found for "GET http:\/\/127\.0\.0\.1:8000\/config\.yaml"" at error-listener\.test\.ts line \d+$/,
  );
  const flat = log?.context['exception'] as FlatError | undefined;
  t.is(flat?.class, 'NotFoundHttpError');
  t.is(flat?.statusCode, 404);
  t.is(handle(new BadRequestHttpError('Invalid Host "a b".')).trace.logs[0]?.level, 'error');
});

test('anything else is critical: plain errors, 4xx LoupeErrors that are not HttpErrors, non-Errors', (t) => {
  t.is(handle(new TypeError('x')).trace.logs[0]?.level, 'critical');
  t.is(handle(new HttpError('LOUPE_ERR_HTTP_INTERNAL', 'a 500 HttpError')).trace.logs[0]?.level, 'critical');
  t.is(handle(new LoupeError('LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', 'No routes found')).trace.logs[0]?.level, 'critical');
  const nonError = handle('a string').trace.logs[0];
  t.is(nonError?.level, 'critical');
  t.is(nonError?.message, 'Uncaught Exception NonError: "a string" at unknown line 0');
});

test('the line is the one where the error was created', (t) => {
  const error = new Error('here');
  const line = Number(/:(\d+):\d+\)?$/m.exec(error.stack?.split('\n')[1] ?? '')?.[1]);
  t.true(handle(error).trace.logs[0]?.message.endsWith(`at error-listener.test.ts line ${line}`));
});

test('nothing is logged when no error is being handled', (t) => {
  t.is(handle(null).trace.logs.length, 0);
});

test('without a detailed trace (prod, no Server-Timing) the error is not logged into the request, nothing reads it there', (t) => {
  const exchange = new Exchange(new LoupeRequest(requestData({ path: '/config.yaml' }), 'en'), null, null, { detailedTrace: false });
  exchange.handlingError = new NotFoundHttpError('No route found for "GET http://127.0.0.1:8000/config.yaml"');
  runPhaseSync(createErrorListener({ debug: false }), 'kernel.exception', exchange);
  t.deepEqual(exchange.trace.logs, []);
  // The same listener with a detailed trace logs it.
  t.is(handle(exchange.handlingError).trace.logs.length, 1);
});
