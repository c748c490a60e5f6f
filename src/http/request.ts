import { BadRequestHttpError } from '../errors/http-error';
import { parseCookies } from './cookies';
import { findJsonProblem } from './find-json-problem';
import { hostPortSeparator } from './host-port-separator';
import { type RequestData } from './request-data';

/**
 * Symfony's host check: whatever is left after removing the allowed characters makes the
 * host invalid. A replace instead of a full-match regex avoids catastrophic backtracking
 * (CVE-2014-5244).
 */
const HOST_ALLOWED = /(?:^\[)?[a-zA-Z0-9-:\]_]+\.?/g;

const DOT = 0x2e;
const HYPHEN = 0x2d;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * A lower-case name or IPv4 address: runs of `a-z`, `0-9` and `-` separated by single dots, as
 * nearly every Host is. HOST_ALLOWED leaves nothing of such a name; anything else goes through it.
 */
function isPlainHostName(host: string): boolean {
  let afterDot = true;
  for (let index = 0; index < host.length; index++) {
    const code = host.charCodeAt(index);
    if (code === DOT) {
      if (afterDot) return false;
      afterDot = true;
    } else if (isDigit(code) || code === HYPHEN || (code >= 0x61 && code <= 0x7a)) {
      afterDot = false;
    } else {
      return false;
    }
  }
  return true;
}

/** Methods an override may name whatever their spelling; any other must be letters only (Request::getMethod). */
const KNOWN_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'PATCH', 'PURGE', 'TRACE']);

/**
 * Deepest nesting of arrays and objects `json()` accepts. Symfony's Request::toArray allows 512;
 * Loupe stops at 128 because the response encoder and the profiler walk the parsed value
 * recursively, on a stack the kernel already uses.
 */
export const MAX_JSON_DEPTH = 128;

/** One request as the kernel sees it: the copied data, plus attributes set while it runs. */
export class LoupeRequest {
  /** The request as received, copied out of uWS: method, raw path and query, headers, body. */
  readonly data: RequestData;
  /** Route parameters, `_route`, `_controller`, and whatever listeners attach. */
  readonly attributes = new Map<string, unknown>();
  /** The locale this request is handled in: the route's `_locale`, else Accept-Language among the enabled locales, else the default. */
  locale: string;
  /** The configured default locale (`APP_DEFAULT_LOCALE`, else the first of `APP_LOCALES`). */
  defaultLocale: string;
  #method: string | null;
  #host: string | null = null;
  #hostFailed = false;
  #port: number | null = null;
  #schemeAndHttpHost: string | null = null;
  #cookies: Readonly<Record<string, string>> | null = null;
  #queryParams: URLSearchParams | null = null;

  constructor(data: RequestData, defaultLocale: string, method: string | null = null) {
    this.data = data;
    this.#method = method;
    this.locale = defaultLocale;
    this.defaultLocale = defaultLocale;
  }

  /**
   * The intended method (Symfony's getMethod): a POST may ask for another with
   * `X-HTTP-Method-Override` (`_method` in the body is not honoured, as in Symfony 7 by default).
   * An override that is not a method token throws a 400 the first time; afterwards the real
   * method answers, so that the error page and profile can still be built.
   */
  get method(): string {
    if (this.#method !== null) return this.#method;
    const real = this.data.method;
    const override = real === 'POST' ? this.data.headers['x-http-method-override'] : undefined;
    this.#method = real;
    if (override === undefined) return real;
    const method = override.toUpperCase();
    if (!KNOWN_METHODS.has(method) && !/^[A-Z]+$/.test(method)) throw new BadRequestHttpError(`Invalid method override "${method}".`);
    return (this.#method = method);
  }

  /** The raw, still percent-encoded path, without the query string. */
  get path(): string {
    return this.data.path;
  }

  /** A header value, or `undefined`; `name` is case-insensitive. */
  header(name: string): string | undefined {
    return this.data.headers[name.toLowerCase()];
  }

  /** The `Cookie` header's cookies by name, values percent-decoded; parsed on first use. */
  get cookies(): Readonly<Record<string, string>> {
    return (this.#cookies ??= parseCookies(this.header('cookie') ?? ''));
  }

  /** The query string's parameters, decoded; parsed on first use. */
  get queryParams(): URLSearchParams {
    return (this.#queryParams ??= new URLSearchParams(this.data.query));
  }

  /**
   * The lower-cased host without its port. Throws a 400 for an invalid Host header the first
   * time; afterwards answers `''` so that the error page and profile can still be built.
   */
  get host(): string {
    if (this.#host !== null) return this.#host;
    if (this.#hostFailed) return '';
    const raw = (this.header('host') ?? '').trim();
    const separator = hostPortSeparator(raw);
    // A Host whose port is not one is named whole in the message, as Symfony names what it refuses.
    const host = (separator === -1 ? raw : raw.slice(0, separator)).toLowerCase();
    if (separator === -1 || (host !== '' && !isPlainHostName(host) && host.replace(HOST_ALLOWED, '') !== '')) {
      this.#hostFailed = true;
      throw new BadRequestHttpError(`Invalid Host "${host}".`, { code: 'LOUPE_ERR_HTTP_INVALID_HOST' });
    }
    return (this.#host = host === '' ? '127.0.0.1' : host);
  }

  /**
   * The port the client addressed (Symfony's getPort, RFC 9110 §7.2): the Host header's, the
   * scheme's default when the Host names none, the listening port when there is no Host at all.
   */
  get port(): number {
    if (this.#port !== null) return this.#port;
    const host = (this.header('host') ?? '').trim();
    const separator = hostPortSeparator(host);
    const schemeDefault = this.data.scheme === 'https' ? 443 : 80;
    // An invalid Host (the host getter's 400) names no port: the scheme's default stands in.
    return (this.#port = separator !== -1 && separator < host.length - 1 ? Number(host.slice(separator + 1)) : host === '' ? this.data.serverPort : schemeDefault);
  }

  /** `scheme://host[:port]`, the port left out when it is the scheme's default. */
  get schemeAndHttpHost(): string {
    // Asked several times per request (router context, messages, the token link): built once.
    if (this.#schemeAndHttpHost !== null) return this.#schemeAndHttpHost;
    const { scheme } = this.data;
    const port = this.port;
    const defaultPort = scheme === 'https' ? 443 : 80;
    const host = this.host;
    return (this.#schemeAndHttpHost = `${scheme}://${host}${port === defaultPort ? '' : `:${port}`}`);
  }

  /** The absolute URL of `path` on this host, with no query string (Symfony's getUriForPath). */
  uriForPath(path: string): string {
    return this.schemeAndHttpHost + path;
  }

  /** The absolute URL of this request, query string included. */
  get uri(): string {
    return this.uriForPath(this.path) + (this.data.query === '' ? '' : `?${this.data.query}`);
  }

  /**
   * The body parsed as JSON. An empty, malformed or too deeply nested body is a 400 whose
   * message gives a byte offset and never quotes the body (it may hold a password), which is
   * why JSON.parse's own message, which does quote it, is never used.
   */
  json(): unknown {
    const { body } = this.data;
    if (body === null || body.length === 0) throw new BadRequestHttpError('Request body is empty.', { code: 'LOUPE_ERR_HTTP_MALFORMED_JSON' });
    const problem = findJsonProblem(body, MAX_JSON_DEPTH);
    if (problem?.kind === 'too_deep') {
      throw new BadRequestHttpError(`Could not decode request body: JSON nested deeper than ${MAX_JSON_DEPTH} levels at byte ${problem.offset}.`, { code: 'LOUPE_ERR_HTTP_JSON_TOO_DEEP' });
    }
    if (problem !== null) {
      const end = problem.offset >= body.length ? ' (the end of the body)' : '';
      throw new BadRequestHttpError(`Could not decode request body: malformed JSON at byte ${problem.offset}${end}.`, { code: 'LOUPE_ERR_HTTP_MALFORMED_JSON' });
    }
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      // Not reached for a text the check passed; the parser's message would quote the body.
      throw new BadRequestHttpError('Could not decode request body: malformed JSON.', { code: 'LOUPE_ERR_HTTP_MALFORMED_JSON' });
    }
  }

  /** A copy for a sub-request: same data, its own attributes and method. */
  duplicate(method: string): LoupeRequest {
    const copy = new LoupeRequest(this.data, this.defaultLocale, method);
    copy.locale = this.locale;
    // An invalid Host was already reported: the sub-request rendering that error must not fail on it again.
    copy.#hostFailed = this.#hostFailed;
    return copy;
  }
}
