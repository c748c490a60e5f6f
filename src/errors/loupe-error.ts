import { ERROR_CODES, type ErrorCode } from './error-codes';

/** Base of every error Loupe raises itself: a registered code, a status code and an optional cause. */
export class LoupeError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown } = {}) {
    // Error reads `cause` alone from its options, and only when present: ours are given as they are.
    super(message, options);
    this.code = code;
    this.statusCode = ERROR_CODES[code].statusCode;
  }

  override get name(): string {
    return this.constructor.name;
  }
}
