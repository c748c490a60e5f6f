import { isStreamBody } from '../../../http/response-body';
import { type CollectedRequest } from '../../../kernel/collected-request';
import { KernelAttributes } from '../../../kernel/kernel-attributes';
import { type ProfileCollector } from '../../collector';
import { type RedactionPolicy } from '../redaction-policy';
import { redactsItself } from '../redacts-itself';
import { roundMs } from './timings';

export const REQUEST_COLLECTOR = 'request';

export interface ProfiledUser {
  readonly identifier: string;
  readonly roles: readonly string[];
  readonly via: string;
}

/**
 * What of the response body went out: its size, and for a streamed body when its first and last
 * bytes did (milliseconds since the request started) and whether it was cut short.
 */
export type ResponseBodyData =
  | { readonly streamed: false; readonly bytes: number }
  | {
      readonly streamed: true;
      readonly bytes: number;
      /** The time to first byte; `null` when no byte went out. */
      readonly firstByteMs: number | null;
      readonly lastByteMs: number;
      /** The client went away before the body's end. */
      readonly aborted: boolean;
      /** The body's source failed; the connection was closed. */
      readonly failed: boolean;
    };

/** What the client sent and what it got back, secrets replaced. */
export interface RequestCollectorData {
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  readonly cookies: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** The session's attributes, or `null` when the request never started one. */
  readonly session: Readonly<Record<string, unknown>> | null;
  readonly locale: string;
  readonly user: ProfiledUser | null;
  readonly response: {
    /** The response that was built, even when it could not be sent (0: none). */
    readonly statusCode: number;
    readonly headers: Readonly<Record<string, string | readonly string[]>>;
    /** Absent when no body went out, or its size is not known (a profile written before it was recorded). */
    readonly body?: ResponseBodyData;
  };
}

export interface RequestCollectorOptions {
  /** Cookies whose values stay secret even when allowed by PROFILER_COOKIE_ALLOWLIST (session, remember-me). */
  readonly secretCookies: ReadonlySet<string>;
}

const MAX_BODY_BYTES = 64 * 1024;

function bodyOf(exchange: CollectedRequest, redaction: RedactionPolicy): unknown {
  const { body } = exchange.request.data;
  if (body === null || body.length === 0) return null;
  if (body.length > MAX_BODY_BYTES) return `(${body.length} bytes, not recorded)`;
  // Media types are case-insensitive (RFC 9110 §8.3.1).
  const type = (exchange.request.header('content-type') ?? '').toLowerCase();
  const text = body.toString('utf8');
  try {
    if (type.includes('json')) return redaction.data(JSON.parse(text));
    if (type.includes('application/x-www-form-urlencoded')) return redaction.data(Object.fromEntries(new URLSearchParams(text)));
  } catch {
    // Malformed: recorded as text below; the request itself reports the error.
  }
  // Text we could not take apart field by field is kept only when no word in it names a secret.
  return redaction.mentionsSecret(text) ? `(${body.length} bytes, not recorded: they name a password, secret or token)` : redaction.data(text);
}

/** The body's size as sent: a streamed body's as its server counted it, a whole one's from its Content-Length. */
function responseBodyOf(exchange: CollectedRequest): ResponseBodyData | null {
  const { response, streamed } = exchange;
  if (streamed !== undefined && streamed !== null) {
    const { bytes, firstByte, lastByte, aborted, failed } = streamed;
    return { streamed: true, bytes, firstByteMs: firstByte === null ? null : roundMs(firstByte), lastByteMs: roundMs(lastByte), aborted, failed };
  }
  if (response === null || !exchange.sent || isStreamBody(response.body)) return null;
  if (exchange.request.method === 'HEAD') return { streamed: false, bytes: 0 };
  const length = Number(response.headers.get('Content-Length') ?? Number.NaN);
  return Number.isSafeInteger(length) && length >= 0 ? { streamed: false, bytes: length } : null;
}

function queryOf(exchange: CollectedRequest, redaction: RedactionPolicy): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  // Most requests have no query: no parameters to parse.
  if (exchange.request.data.query === '') return out;
  for (const [key, value] of exchange.request.queryParams) {
    const previous = out[key];
    out[key] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return redaction.data(out) as Record<string, string | string[]>;
}

/**
 * The session and the user, copied out of the exchange. The one place the profiler reads
 * per-request state the session and security listeners leave behind: where that state lives
 * is changing (typed request attributes), and only this function has to follow.
 */
function sessionOf(exchange: CollectedRequest, redaction: RedactionPolicy): RequestCollectorData['session'] {
  const session = exchange.attributes.get(KernelAttributes.SESSION);
  return session?.isStarted === true ? (redaction.data(session.all()) as Record<string, unknown>) : null;
}

function userOf(exchange: CollectedRequest, redaction: RedactionPolicy): RequestCollectorData['user'] {
  const user = exchange.attributes.get(KernelAttributes.USER) ?? null;
  return user === null ? null : { identifier: redaction.text(user.identifier), roles: user.roles.map((role) => redaction.text(role)), via: redaction.text(user.via) };
}

/**
 * The request collector: headers, query, cookies, body, session, locale, user and the response.
 * Every string of its entry is redacted here (the response's Server-Timing, new on every request,
 * would otherwise be redacted twice).
 */
export function createRequestCollector(options: RequestCollectorOptions): ProfileCollector<RequestCollectorData> {
  return redactsItself({
    name: REQUEST_COLLECTOR,
    collect: (exchange, redaction) => {
      const { request, response } = exchange;
      const body = responseBodyOf(exchange);
      return {
        headers: redaction.headers(request.data.headers),
        query: queryOf(exchange, redaction),
        cookies: redaction.cookies(request.cookies, options.secretCookies),
        body: bodyOf(exchange, redaction),
        session: sessionOf(exchange, redaction),
        user: userOf(exchange, redaction),
        // kernel.finish_request has reset request.locale by now: the handled one is kept aside.
        locale: redaction.text(exchange.attributes.get(KernelAttributes.HANDLED_LOCALE) ?? request.locale),
        response: {
          statusCode: response?.status ?? 0,
          headers: response === null ? {} : redaction.headers(response.headers.toJSON()),
          ...(body === null ? {} : { body }),
        },
      };
    },
  });
}
