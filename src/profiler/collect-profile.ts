import { flattenError } from '../error-handler/flatten-error';
import { type Exchange } from '../kernel/exchange';
import { KernelAttributes } from '../kernel/kernel-attributes';
import { type Profile, type ProfileRouting } from './profile';
import { mentionsSecret, redactCookies, redactData, redactHeaders, redactUrl } from './redact';

export interface CollectOptions {
  readonly token: string;
  readonly parent: string | null;
  readonly children: readonly string[];
  /** Cookie names whose values are secrets (session, remember-me). */
  readonly secretCookies: ReadonlySet<string>;
}

const KERNEL_PHASE = /^kernel\./;

/** Milliseconds to the microsecond: the stored profile stays small (timings are the bulk of it). */
const ms = (value: number): number => Math.round(value * 1000) / 1000;
const MAX_BODY_BYTES = 64 * 1024;

function routingOf(exchange: Exchange): ProfileRouting {
  const { attributes } = exchange.request;
  const route = attributes.get('_route');
  const controller = attributes.get('_controller');
  const params: Record<string, string> = {};
  for (const [key, value] of attributes) if (typeof value === 'string') params[key] = value;
  const failure = exchange.errors.find((error) => error instanceof Error && /^No route found/.test(error.message));
  return {
    route: typeof route === 'string' ? route : null,
    controller: typeof controller === 'string' ? controller : (exchange.controller?.name ?? null),
    params,
    failure: failure instanceof Error ? failure.message : null,
  };
}

function bodyOf(exchange: Exchange): unknown {
  const { body } = exchange.request.data;
  if (body === null || body.length === 0) return null;
  if (body.length > MAX_BODY_BYTES) return `(${body.length} bytes, not recorded)`;
  // Media types are case-insensitive (RFC 9110 §8.3.1).
  const type = (exchange.request.header('content-type') ?? '').toLowerCase();
  const text = body.toString('utf8');
  try {
    if (type.includes('json')) return redactData(JSON.parse(text));
    if (type.includes('application/x-www-form-urlencoded')) return redactData(Object.fromEntries(new URLSearchParams(text)));
  } catch {
    // Malformed: recorded as text below; the request itself reports the error.
  }
  // Text we could not take apart field by field is kept only when nothing in it looks secret.
  return mentionsSecret(text) ? `(${body.length} bytes, not recorded: they name a password, secret or token)` : redactData(text);
}

function queryOf(exchange: Exchange): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of exchange.request.queryParams) {
    const previous = out[key];
    out[key] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return redactData(out) as Record<string, string | string[]>;
}

/**
 * The profile of one finished exchange: plain, bounded and redacted data only, built
 * synchronously so that nothing of the request outlives it.
 */
export function collectProfile(exchange: Exchange, options: CollectOptions): Profile {
  const { request, response, trace } = exchange;
  const errors = exchange.parent === null ? exchange.errors : [exchange.renderedError, ...exchange.errors];
  const stored = exchange.attributes.get(KernelAttributes.SESSION);
  const session = stored?.isStarted === true ? (redactData(stored.all()) as Record<string, unknown>) : null;
  const user = exchange.attributes.get(KernelAttributes.USER) ?? null;
  const states = trace.states.map((state) => ({ name: state.name, start: ms(state.start), duration: ms(state.duration) }));
  const end = states.at(-1);
  return {
    token: options.token,
    parent: options.parent,
    children: options.children,
    type: exchange.parent === null ? 'main' : 'sub',
    ip: request.data.remoteAddress,
    method: request.method,
    url: redactUrl(request.uri),
    time: trace.startedAt,
    statusCode: exchange.sent || exchange.parent !== null ? (response?.status ?? 0) : 0,
    aborted: exchange.aborted,
    duration: end === undefined ? 0 : ms(end.start + end.duration),
    phases: states.filter((state) => KERNEL_PHASE.test(state.name)),
    states,
    listeners: trace.listeners.map((listener) => ({ ...listener, start: ms(listener.start), duration: ms(listener.duration) })),
    routing: routingOf(exchange),
    errors: errors.filter((error) => error !== null).map((error) => flattenError(error)),
    logs: trace.logs.map((log) => ({ ...log, at: ms(log.at), context: redactData(log.context) as Record<string, unknown> })),
    request: {
      headers: redactHeaders(request.data.headers) as Record<string, string>,
      query: queryOf(exchange),
      cookies: redactCookies(request.cookies, options.secretCookies),
      body: bodyOf(exchange),
      session,
      locale: request.locale,
      user: user === null ? null : { identifier: user.identifier, roles: [...user.roles], via: user.via },
    },
    response: {
      statusCode: response?.status ?? 0,
      headers: response === null ? {} : redactHeaders(response.headers.toJSON()),
    },
    profilerCost: { collect: 0 },
  };
}
