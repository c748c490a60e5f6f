import { types } from 'node:util';
import { ERROR_CODES, type ErrorCode } from './error-codes';
import { capturesStackTraces } from './without-stack-traces';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A LoupeError made without calling Error, which would capture a stack trace unless the global
 * `Error.stackTraceLimit` were 0 (see withoutStackTraces): an object of the same prototype with
 * the own properties Error gives (`message`, `cause` when given, not enumerable) and a `stack` of
 * its name and message, as V8 writes it with the limit at 0. `instanceof`, `name`, `toString()`,
 * loggers and the error pages see an error as any other; `util.types.isNativeError` says false.
 */
function stacklessError(prototype: LoupeError, code: string | null, statusCode: number, message: string, options: { cause?: unknown }): LoupeError {
  const error = Object.create(prototype) as Writable<LoupeError>;
  const name = error.name;
  Object.defineProperty(error, 'stack', { value: message === '' ? name : `${name}: ${message}`, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(error, 'message', { value: message, writable: true, configurable: true, enumerable: false });
  if ('cause' in options) Object.defineProperty(error, 'cause', { value: options.cause, writable: true, configurable: true, enumerable: false });
  error.code = code;
  error.statusCode = statusCode;
  return error;
}

/** Base of every error Loupe raises itself: a registered code, a status code and an optional cause. */
export class LoupeError extends Error {
  // `declare`: assigned in the constructor, or on the object stacklessError makes.
  /**
   * A code of Loupe's registry (`LOUPE_ERR_…`), or the application's own code given to
   * httpError; `null` for an application's HttpError that names none.
   */
  declare readonly code: string | null;
  /** The HTTP status its error page answers with: the registry's for Loupe's codes, the one given for an application's. */
  declare readonly statusCode: number;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown });
  /** An error of the application's: its own code (or none) and any status. */
  constructor(code: string | null, message: string, options: { cause?: unknown; statusCode: number });
  constructor(code: string | null, message: string, options: { cause?: unknown; statusCode?: number } = {}) {
    const statusCode = options.statusCode ?? ERROR_CODES[code as ErrorCode].statusCode;
    // The object `this` becomes in the subclasses' constructors, which go on as usual.
    if (!capturesStackTraces()) return stacklessError(new.target.prototype as LoupeError, code, statusCode, message, options);
    // Error reads `cause` alone from its options, and only when present: ours are given as they are.
    super(message, options);
    this.code = code;
    this.statusCode = statusCode;
  }

  /** The class name (`NotFoundHttpError`, `LoupeError`…), as stack traces and logs show it. */
  override get name(): string {
    return this.constructor.name;
  }
}

/**
 * Whether `error` was made inside withoutStackTraces: its `stack` is its name and message alone,
 * no frame to read (a LoupeError that Error did not make is one stacklessError made).
 */
export function isStackless(error: LoupeError): boolean {
  return !types.isNativeError(error);
}
