import { STATUS_TEXT } from '../errors/status-text';
import { HttpError } from '../errors/http-error';
import { isStackless, LoupeError } from '../errors/loupe-error';
import { hideMachineFrames } from './hide-machine-frames';
import { parseStack, type StackFrame } from './parse-stack';
import { stackTrace } from './read-stack';

/** One error of a chain as plain data: what the renderers, the log and the profiler show. */
export interface FlatErrorEntry {
  /** Constructor name (`NotFoundHttpError`, `TypeError`); `NonError` for a thrown non-Error. */
  readonly class: string;
  readonly message: string;
  /** The registered code of a LoupeError, else `null`. */
  readonly code: string | null;
  readonly statusCode: number;
  readonly statusText: string;
  /** Headers the error asks for (`Allow`, `WWW-Authenticate`); only HttpErrors have some. */
  readonly headers: Readonly<Record<string, string>>;
  /** First frame = where the error was created; runs of the request machine's frames are counted, not listed. */
  readonly trace: readonly StackFrame[];
}

/**
 * What an error's public page says of it: its status line, the headers it asks for, and the
 * message and code of an application's HttpError that exposes them (HttpErrorOptions.expose).
 */
export type ErrorStatus = Pick<FlatErrorEntry, 'statusCode' | 'statusText' | 'headers'> & {
  readonly exposed?: { readonly message: string; readonly code: string | null };
};

/** An error and its `cause` chain, outermost first: `previous[0]` is the outer error's cause. */
export interface FlatError extends FlatErrorEntry {
  readonly previous: readonly FlatErrorEntry[];
}

const MAX_PREVIOUS = 10;
/** The trace of an error without one: shared, as it is never changed. */
const NO_FRAMES: readonly StackFrame[] = Object.freeze([]);
const MAX_FRAMES = 50;
const UNKNOWN_STATUS_TEXT = 'Whoops, looks like something went wrong.';

/** Reads a property that may be a throwing getter or sit behind a hostile Proxy. */
function read(value: unknown, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function isError(value: unknown): value is Error {
  try {
    // The tag check also accepts errors from another realm (vm contexts, workers).
    return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
  } catch {
    return false;
  }
}

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return String(value);
  } catch {
    // Object.create(null), a throwing toString: there is nothing better to say.
    return Object.prototype.toString.call(value);
  }
}

function className(error: Error): string {
  const name = read(read(error, 'constructor'), 'name');
  if (typeof name === 'string' && name !== '') return name;
  const fallback = read(error, 'name');
  return typeof fallback === 'string' && fallback !== '' ? fallback : 'Error';
}

function statusOf(error: unknown): number {
  try {
    if (error instanceof HttpError || error instanceof LoupeError) return error.statusCode;
  } catch {
    // A Proxy's getPrototypeOf trap may throw; such an error is an internal one.
  }
  return 500;
}

function headersOf(error: unknown): Readonly<Record<string, string>> {
  try {
    if (!(error instanceof HttpError)) return {};
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(error.headers)) if (typeof value === 'string') headers[name] = value;
    return headers;
  } catch {
    return {};
  }
}

function parseFrames(stack: string): StackFrame[] {
  return hideMachineFrames(parseStack(stack, MAX_FRAMES));
}

function traceOf(error: Error): readonly StackFrame[] {
  try {
    return stackTrace(error, parseFrames);
  } catch {
    // A throwing `stack` getter, a hostile Proxy: no trace to show.
    return [];
  }
}

/**
 * The status line and headers of anything thrown, as flattenError gives them, without the rest
 * (message, class, causes, trace): all a page without debug shows, at a fraction of the cost.
 * Never throws.
 */
export function errorStatus(error: unknown): ErrorStatus {
  const statusCode = statusOf(error);
  const status = { statusCode, statusText: STATUS_TEXT[statusCode] ?? UNKNOWN_STATUS_TEXT, headers: isError(error) ? headersOf(error) : {} };
  const exposed = exposedOf(error);
  return exposed === null ? status : Object.assign(status, { exposed });
}

/** The message and code an HttpError lets the client read without debug, else `null`. */
function exposedOf(error: unknown): NonNullable<ErrorStatus['exposed']> | null {
  try {
    if (!(error instanceof HttpError) || !error.expose) return null;
    return { message: toText(error.message), code: typeof error.code === 'string' ? error.code : null };
  } catch {
    return null;
  }
}

function flattenOne(error: unknown, withTrace: boolean): FlatErrorEntry {
  const statusCode = statusOf(error);
  const statusText = STATUS_TEXT[statusCode] ?? UNKNOWN_STATUS_TEXT;
  if (!isError(error)) {
    const message = read(error, 'message');
    return {
      class: 'NonError',
      message: typeof message === 'string' ? message : toText(error),
      code: null,
      statusCode,
      statusText,
      headers: {},
      trace: [],
    };
  }
  const message = read(error, 'message');
  const code = read(error, 'code');
  let isLoupe = false;
  try {
    isLoupe = error instanceof LoupeError;
  } catch {
    isLoupe = false;
  }
  // Formatting and parsing a stack is the costly part: skipped when nobody will see it, and when
  // there is none (an unrouted request's 404, made without one), as is swapping the formatter to read it.
  const trace = withTrace && !(isLoupe && isStackless(error as LoupeError)) ? traceOf(error) : NO_FRAMES;
  return {
    class: className(error),
    message: typeof message === 'string' ? message : toText(message ?? ''),
    code: isLoupe && typeof code === 'string' ? code : null,
    statusCode,
    statusText,
    headers: headersOf(error),
    trace,
  };
}

/**
 * Whether flattening `error` again costs less than remembering it: one of Loupe's errors made
 * without a stack trace and without a cause (an unrouted request's 404, one per request). A
 * WeakMap entry is an ephemeron that every garbage collection visits while the error lives.
 */
function isCheapToFlatten(error: object): boolean {
  try {
    return error instanceof LoupeError && isStackless(error) && !Object.hasOwn(error, 'cause');
  } catch {
    // A Proxy's traps may throw: such an error is remembered, as any other.
    return false;
  }
}

/** The causes of an error without one: shared, as they are never changed. */
const NO_PREVIOUS: readonly FlatErrorEntry[] = Object.freeze([]);

/**
 * A cheap error (isCheapToFlatten) as flattenUncached gives it, its fields read as they are: one
 * of Loupe's own, made by stacklessError, whose fields are plain data. An unrouted request's 404
 * is flattened on every profiled request: the guarded reads cost more than the rest of it.
 */
function flattenStackless(error: LoupeError): FlatError {
  const name = error.constructor.name;
  const { message, code, statusCode } = error;
  return {
    class: name === '' ? className(error) : name,
    message: typeof message === 'string' ? message : toText(message ?? ''),
    code: typeof code === 'string' ? code : null,
    statusCode,
    statusText: STATUS_TEXT[statusCode] ?? UNKNOWN_STATUS_TEXT,
    headers: headersOf(error),
    trace: NO_FRAMES,
    previous: NO_PREVIOUS,
  };
}

/** Flattened errors by error object: the listener, the error page and the profiles share one. */
const flattened = { withTrace: new WeakMap<object, FlatError>(), withoutTrace: new WeakMap<object, FlatError>() };

/**
 * Turns anything thrown into plain data, with its `cause` chain (cycles cut, at most ten
 * causes). As Symfony's FlattenException: an HttpError gives its status and headers, a
 * LoupeError its status, anything else 500. Never throws, whatever it is given. Without
 * `trace`, stacks are left out (and never formatted). The result is cached per error object.
 */
export function flattenError(error: unknown, options: { trace?: boolean } = {}): FlatError {
  const withTrace = options.trace ?? true;
  const cheap = typeof error === 'object' && error !== null && isCheapToFlatten(error);
  if (cheap) {
    try {
      return flattenStackless(error as LoupeError);
    } catch {
      // A Proxy around one whose traps throw: flattened with every read guarded, below.
    }
  }
  const cache = withTrace ? flattened.withTrace : flattened.withoutTrace;
  const cacheable = typeof error === 'object' && error !== null && !cheap;
  const cached = cacheable ? cache.get(error) : undefined;
  if (cached !== undefined) return cached;
  const flat = flattenUncached(error, withTrace);
  if (cacheable) cache.set(error, flat);
  return flat;
}

function flattenUncached(error: unknown, withTrace: boolean): FlatError {
  try {
    const previous: FlatErrorEntry[] = [];
    let cause = isError(error) ? read(error, 'cause') : undefined;
    // Most errors have no cause: no set of the ones seen to make.
    const seen = cause === undefined || cause === null ? null : new Set<unknown>([error]);
    while (seen !== null && cause !== undefined && cause !== null && previous.length < MAX_PREVIOUS && !seen.has(cause)) {
      seen.add(cause);
      previous.push(flattenOne(cause, withTrace));
      cause = isError(cause) ? read(cause, 'cause') : undefined;
    }
    // Object.assign, not a spread: a spread into a new literal costs microseconds on Node 20.
    return Object.assign(flattenOne(error, withTrace), { previous });
  } catch {
    // Only reachable through something as odd as a Proxy that breaks Set or spread; stay useful.
    return { class: 'NonError', message: '', code: null, statusCode: 500, statusText: STATUS_TEXT[500] ?? UNKNOWN_STATUS_TEXT, headers: {}, trace: [], previous: [] };
  }
}
