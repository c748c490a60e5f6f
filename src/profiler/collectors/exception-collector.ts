import { flattenError, type FlatError, type FlatErrorEntry } from '../../error-handler/flatten-error';
import { type ProfileCollector } from '../collector';
import { type RedactionPolicy } from '../redaction-policy';

export const EXCEPTION_COLLECTOR = 'exception';

export interface ExceptionCollectorData {
  /** Every error raised while handling the request, each with its chain of previous errors. */
  readonly errors: readonly FlatError[];
}

/** An error as recorded: its message and the headers it asks for redacted (cached FlatErrors are shared: copied). */
function redactEntry<TEntry extends FlatErrorEntry>(entry: TEntry, redaction: RedactionPolicy): TEntry {
  return { ...entry, message: redaction.text(entry.message), headers: redaction.headers(entry.headers) };
}

/**
 * The request's errors, flattened, as Symfony's exception collector. An error sub-request
 * lists the error it renders first: that is what it is about.
 */
export const exceptionCollector: ProfileCollector<ExceptionCollectorData> = {
  name: EXCEPTION_COLLECTOR,
  collect: (exchange, redaction) => {
    const errors = exchange.parent === null ? exchange.errors : [exchange.renderedError, ...exchange.errors];
    return {
      errors: errors
        .filter((error) => error !== null)
        .map((error) => flattenError(error))
        .map((flat) => ({ ...redactEntry(flat, redaction), previous: flat.previous.map((previous) => redactEntry(previous, redaction)) })),
    };
  },
};
