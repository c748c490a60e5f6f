import { type ErrorCode } from './error-codes';
import { LoupeError } from './loupe-error';

/** The headers of the errors that ask for none (most 404s): one frozen object for all of them. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** An error meant for the client: its status code and headers reach the response. */
export class HttpError extends LoupeError {
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(code, message, options);
    this.headers = options.headers === undefined ? NO_HEADERS : Object.freeze({ ...options.headers });
  }
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
