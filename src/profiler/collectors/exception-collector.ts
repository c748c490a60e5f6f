import { flattenError, type FlatError } from '../../error-handler/flatten-error';
import { type ProfileCollector } from '../collector';

export const EXCEPTION_COLLECTOR = 'exception';

export interface ExceptionCollectorData {
  /** Every error raised while handling the request, each with its chain of previous errors. */
  readonly errors: readonly FlatError[];
}

/**
 * The request's errors, flattened, as Symfony's exception collector. An error sub-request
 * lists the error it renders first: that is what it is about.
 */
export const exceptionCollector: ProfileCollector<ExceptionCollectorData> = {
  name: EXCEPTION_COLLECTOR,
  collect: (exchange) => {
    const errors = exchange.parent === null ? exchange.errors : [exchange.renderedError, ...exchange.errors];
    return { errors: errors.filter((error) => error !== null).map((error) => flattenError(error)) };
  },
};
