import { ERROR_CODES, type ErrorCode } from './error-codes';

/** Base of every error Loupe raises itself: a registered code, a status code and an optional cause. */
export class LoupeError extends Error {
  /**
   * A code of Loupe's registry (`LOUPE_ERR_…`), or the application's own code given to
   * httpError; `null` for an application's HttpError that names none.
   */
  readonly code: string | null;
  /** The HTTP status its error page answers with: the registry's for Loupe's codes, the one given for an application's. */
  readonly statusCode: number;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown });
  /** An error of the application's: its own code (or none) and any status. */
  constructor(code: string | null, message: string, options: { cause?: unknown; statusCode: number });
  constructor(code: string | null, message: string, options: { cause?: unknown; statusCode?: number } = {}) {
    // Error reads `cause` alone from its options, and only when present: ours are given as they are.
    super(message, options);
    this.code = code;
    this.statusCode = options.statusCode ?? ERROR_CODES[code as ErrorCode].statusCode;
  }

  /** The class name (`NotFoundHttpError`, `LoupeError`…), as stack traces and logs show it. */
  override get name(): string {
    return this.constructor.name;
  }
}
