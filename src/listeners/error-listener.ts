import { HttpError } from '../errors/http-error';
import { flattenError } from '../errors/flatten-error';
import { type Exchange } from '../kernel/exchange';
import { type Listener } from '../kernel/listener';

function basename(file: string): string {
  return file.split(/[\\/]/).pop() || 'unknown';
}

/**
 * Logs the error being handled (Symfony's ErrorListener::logKernelException):
 * `Uncaught Exception <Class>: "<message>" at <file> line <line>`, as `error` for a client
 * error (HttpError below 500), else `critical`.
 */
function logKernelException(exchange: Exchange): void {
  const error = exchange.handlingError;
  if (error === null) return;
  const flat = flattenError(error);
  const origin = flat.trace[0];
  const isClientError = error instanceof HttpError && flat.statusCode < 500;
  exchange.trace.log(
    isClientError ? 'error' : 'critical',
    `Uncaught Exception ${flat.class}: "${flat.message}" at ${basename(origin?.file ?? '')} line ${origin?.line ?? 0}`,
    { exception: flat },
  );
}

/** The kernel.exception listener that logs each error before it is rendered (priority 0). */
export function createErrorListener(): Listener {
  return {
    name: 'ErrorListener',
    subscriptions: {
      'kernel.exception': { priority: 0, handle: logKernelException },
    },
  };
}
