import { HttpError } from '../errors/http-error';
import { flattenError } from './flatten-error';
import { type ExceptionEvent } from '../kernel/event/exception-event';
import { defineListener, type Listener } from '../kernel/listener';

function basename(file: string): string {
  return file.split(/[\\/]/).pop() || 'unknown';
}

/**
 * Logs the error being handled (Symfony's ErrorListener::logKernelException):
 * `Uncaught Exception <Class>: "<message>" at <file> line <line>`, as `error` for a client
 * error (HttpError below 500), else `critical`.
 */
function logKernelException(event: ExceptionEvent, withTrace: boolean): void {
  const { error } = event;
  // The entry is kept with a detailed trace only (see Trace.log): without, nothing to build.
  if (error === null || !event.exchange.trace.detailed) return;
  const flat = flattenError(error, { trace: withTrace });
  const origin = flat.trace[0];
  const file = basename(origin?.file ?? '');
  const line = origin?.line ?? 0;
  const isClientError = error instanceof HttpError && flat.statusCode < 500;
  // The context names the error; its chain and trace are in the profile's errors once, not here again.
  event.log(isClientError ? 'error' : 'critical', `Uncaught Exception ${flat.class}: "${flat.message}" at ${file} line ${line}`, {
    exception: { class: flat.class, message: flat.message, code: flat.code, statusCode: flat.statusCode, file: origin?.file ?? null, line },
  });
}

/**
 * The kernel.exception listener that logs each error before it is rendered (priority 0).
 * Without debug nobody sees where an error came from, so its stack is not formatted.
 */
export function createErrorListener(options: { debug: boolean } = { debug: true }): Listener {
  return defineListener('ErrorListener', {
    'kernel.exception': [0, (event) => logKernelException(event, options.debug)],
  });
}
