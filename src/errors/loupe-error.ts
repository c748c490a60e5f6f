import { ERROR_CODES, type ErrorCode } from './error-codes';

/** Base of every error Loupe raises itself: a registered code, a status code and an optional cause. */
export class LoupeError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;

  constructor(code: ErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.code = code;
    this.statusCode = ERROR_CODES[code].statusCode;
  }

  override get name(): string {
    return this.constructor.name;
  }
}
