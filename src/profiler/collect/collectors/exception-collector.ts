import { flattenError, type FlatError, type FlatErrorEntry } from '../../../error-handler/flatten-error';
import { type StackFrame } from '../../../error-handler/parse-stack';
import { type CollectedRequest } from '../../../kernel/collected-request';
import { type ProfileCollector } from '../../collector';
import { profileTokenOf } from '../profile-token';
import { type RedactionPolicy } from '../redaction-policy';
import { redactsItself, textOrNull } from '../redacts-itself';

export const EXCEPTION_COLLECTOR = 'exception';

/** What the panels, the toolbar and the CLI read: every error, in full (see resolveParentErrors). */
export interface ExceptionCollectorData {
  /** Every error raised while handling the request, each with its chain of previous errors. */
  readonly errors: readonly FlatError[];
}

/**
 * An error recorded once, in the profile of the request whose error sub-request this is: the
 * sub-request renders its parent's error, and both profiles would otherwise store its whole chain.
 */
export interface ParentErrorReference {
  readonly sameAs: {
    /** The parent request's profile token. */
    readonly profile: string;
    /** The error's position in that profile's `errors`. */
    readonly index: number;
  };
}

/** What the collector stores: an error sub-request's profile refers to its parent's errors. */
export interface StoredExceptionData {
  readonly errors: readonly (FlatError | ParentErrorReference)[];
}

/** A frame with its function and file redacted: a file may be a URL with a query (`file:///app.mjs?v=…`). */
function redactFrame(frame: StackFrame, redaction: RedactionPolicy): StackFrame {
  const fn = redaction.text(frame.function);
  const file = redaction.text(frame.file);
  return fn === frame.function && file === frame.file ? frame : Object.assign({}, frame, { function: fn, file });
}

/**
 * An error as recorded, every string of it redacted: its message and the headers it asks for
 * above all (cached FlatErrors are shared: copied). Made as one literal, in the order of
 * FlatErrorEntry's fields: a copy then overwritten (a spread, or Object.assign onto `{}`) costs
 * several times as much on Node 20.
 */
function redactEntry(entry: FlatErrorEntry, redaction: RedactionPolicy): FlatErrorEntry {
  return {
    class: redaction.text(entry.class),
    message: redaction.text(entry.message),
    code: textOrNull(entry.code, redaction),
    statusCode: entry.statusCode,
    statusText: redaction.text(entry.statusText),
    headers: redaction.headers(entry.headers),
    // Most errors recorded (a 404, a 405) have no trace: nothing to copy.
    trace: entry.trace.length === 0 ? entry.trace : entry.trace.map((frame) => redactFrame(frame, redaction)),
  };
}

function redactError(error: unknown, redaction: RedactionPolicy): FlatError {
  const flat = flattenError(error);
  // Onto the new entry: one field added, nothing copied.
  return Object.assign(redactEntry(flat, redaction), { previous: flat.previous.map((previous) => redactEntry(previous, redaction)) });
}

/** The errors a profile of `exchange` records in its own right, in order. */
function ownErrors(exchange: CollectedRequest): unknown[] {
  return exchange.errors.filter((error) => error !== null);
}

/** Where the parent's profile records `error`, when it has a profile that records it. */
function parentReference(exchange: CollectedRequest, error: unknown): ParentErrorReference | null {
  const parent = exchange.parent;
  const token = parent === null ? null : profileTokenOf(parent);
  if (parent === null || token === null) return null;
  const index = ownErrors(parent).indexOf(error);
  return index === -1 ? null : { sameAs: { profile: token, index } };
}

/**
 * The request's errors, flattened, as Symfony's exception collector. An error sub-request
 * lists the error it renders first: that is what it is about. That error is its parent's,
 * whose profile records it in full: the sub-request's profile refers to it there (readers
 * put it back, see resolveParentErrors), unless the parent has no profile. Every string is
 * redacted here (see redactEntry): no last pass walks the frames.
 */
export const exceptionCollector: ProfileCollector<StoredExceptionData> = redactsItself({
  name: EXCEPTION_COLLECTOR,
  collect: (exchange, redaction) => {
    const own = ownErrors(exchange).map((error) => redactError(error, redaction));
    if (exchange.parent === null || exchange.renderedError === null) return { errors: own };
    const rendered = exchange.renderedError;
    return { errors: [parentReference(exchange, rendered) ?? redactError(rendered, redaction), ...own] };
  },
});
