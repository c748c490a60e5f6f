import { STATUS_TEXT } from './status-text';
import { type ErrorCode } from './error-codes';
import { LoupeError } from './loupe-error';

/** The headers of the errors that ask for none (most 404s): one frozen object for all of them. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** What an application's HttpError may carry besides its status and message. */
export interface HttpErrorOptions {
  /** The application's own code (`ORDER_CLOSED`), shown beside the message and in the problem document. */
  readonly code?: string;
  /** Headers of the response (`Retry-After`, `Location`, `WWW-Authenticate`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The error that led to this one: kept as `cause`, shown as the previous error in debug pages and the profiler. */
  readonly cause?: unknown;
  /**
   * Whether the message (and code) reach the client without debug, where a page otherwise says
   * the status alone. As the `http-errors` package Express and Koa use: yes below 500, no from 500.
   */
  readonly expose?: boolean;
}

/** A status an HttpError may answer: 400 to 599. */
function isErrorStatus(status: number): boolean {
  return Number.isInteger(status) && status >= 400 && status <= 599;
}

/**
 * An error meant for the client: its status code and headers reach the response. Loupe's own
 * are made from a code of its registry (`new HttpError('LOUPE_ERR_HTTP_NOT_FOUND', …)`); an
 * application's from any status (`new HttpError(409, 'Order closed.', { code: 'ORDER_CLOSED' })`,
 * or httpError).
 */
export class HttpError extends LoupeError {
  /** Headers the error response carries (`Allow`, `Retry-After`, `WWW-Authenticate`…); frozen, `{}` when none. */
  readonly headers: Readonly<Record<string, string>>;
  /** Whether the message reaches the client without debug (see HttpErrorOptions.expose); never for Loupe's own. */
  readonly expose: boolean;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; headers?: Readonly<Record<string, string>> });
  constructor(status: number, message?: string, options?: HttpErrorOptions);
  constructor(codeOrStatus: ErrorCode | number, message?: string, options: HttpErrorOptions = {}) {
    if (typeof codeOrStatus === 'number') {
      if (!isErrorStatus(codeOrStatus)) {
        throw new RangeError(`An HttpError's status is an integer from 400 to 599, not ${String(codeOrStatus)}.`, { cause: options.cause });
      }
      const cause = 'cause' in options ? { cause: options.cause } : {};
      super(options.code ?? null, message ?? STATUS_TEXT[codeOrStatus] ?? 'Error', { ...cause, statusCode: codeOrStatus });
      this.expose = options.expose ?? codeOrStatus < 500;
    } else {
      super(codeOrStatus, message ?? '', 'cause' in options ? { cause: options.cause } : {});
      this.expose = false;
    }
    this.headers = options.headers === undefined ? NO_HEADERS : Object.freeze({ ...options.headers });
  }
}

/**
 * An error that answers `status` (any 4xx or 5xx), as Hono's HTTPException or Fastify's
 * createError: `throw httpError(422, 'The title is required.', { code: 'TITLE_REQUIRED' })`.
 * The message defaults to the status text; the error page, the problem document, the log and
 * the profiler treat it as one of Loupe's own.
 */
export function httpError(status: number, message?: string, options: HttpErrorOptions = {}): HttpError {
  return new HttpError(status, message, options);
}

/** 400: the request is malformed; the message of the underlying error is reused. */
export class BadRequestHttpError extends HttpError {
  constructor(message: string, options: { cause?: unknown; code?: ErrorCode } = {}) {
    super(options.code ?? 'LOUPE_ERR_HTTP_BAD_REQUEST', message, options);
  }
}

/** 401: credentials are missing or wrong; carries the `WWW-Authenticate` challenge. */
export class UnauthorizedHttpError extends HttpError {
  constructor(message: string, challenge: string, options: { cause?: unknown } = {}) {
    super('LOUPE_ERR_HTTP_UNAUTHORIZED', message, { ...options, headers: { 'WWW-Authenticate': challenge } });
  }
}

/**
 * 401 raised by the firewall (Symfony's AuthenticationException): the security exception
 * listener answers it with the firewall's entry point, the bare challenge, instead of an error page.
 */
export class AuthenticationHttpError extends UnauthorizedHttpError {
  /** The `WWW-Authenticate` challenge the entry point sends. */
  readonly challenge: string;

  constructor(message: string, challenge: string, options: { cause?: unknown } = {}) {
    super(message, challenge, options);
    this.challenge = challenge;
  }
}

/** 404: nothing answers this path. */
export class NotFoundHttpError extends HttpError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('LOUPE_ERR_HTTP_NOT_FOUND', message, options);
  }
}

/** 405: the path exists for other methods, listed in `Allow`. */
export class MethodNotAllowedHttpError extends HttpError {
  /** The methods the path answers, upper-cased: the `Allow` header's. */
  readonly allowedMethods: readonly string[];

  constructor(allowedMethods: readonly string[], message: string, options: { cause?: unknown } = {}) {
    const allow = allowedMethods.map((method) => method.toUpperCase());
    super('LOUPE_ERR_HTTP_METHOD_NOT_ALLOWED', message, { ...options, headers: { Allow: allow.join(', ') } });
    this.allowedMethods = allow;
  }
}

/** 413: the request body is larger than the configured limit. */
export class PayloadTooLargeHttpError extends HttpError {
  constructor(limit: number) {
    super('LOUPE_ERR_HTTP_PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limit} bytes.`);
  }
}

/** 403: the user is authenticated but lacks a role the resource requires. */
export class ForbiddenHttpError extends HttpError {
  constructor(message = 'Access Denied.', options: { cause?: unknown } = {}) {
    super('LOUPE_ERR_HTTP_FORBIDDEN', message, options);
  }
}

/** 503: a service the request depends on (Redis) failed; trying again later may work. */
export class ServiceUnavailableHttpError extends HttpError {
  constructor(message: string, options: { cause?: unknown; code?: ErrorCode } = {}) {
    super(options.code ?? 'LOUPE_ERR_HTTP_SERVICE_UNAVAILABLE', message, options);
  }
}

/**
 * 429: too many failed logins from this client; `Retry-After` says in how many seconds to try
 * again (RFC 6585 §4, RFC 9110 §10.2.3). The message is Symfony's, in whole minutes.
 */
export class TooManyRequestsHttpError extends HttpError {
  /** Whole seconds until the client may try again, at least 1: the `Retry-After` header's. */
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number, options: { cause?: unknown } = {}) {
    // delay-seconds is a non-negative integer; a refusal that says "retry in 0 s" would invite a loop.
    const seconds = Number.isFinite(retryAfterSeconds) ? Math.max(1, Math.ceil(retryAfterSeconds)) : 1;
    const minutes = Math.ceil(seconds / 60);
    const message = `Too many failed login attempts, please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    super('LOUPE_ERR_SECURITY_TOO_MANY_LOGIN_ATTEMPTS', message, { ...options, headers: { 'Retry-After': String(seconds) } });
    this.retryAfterSeconds = seconds;
  }
}
