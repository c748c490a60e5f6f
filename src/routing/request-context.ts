import { type LoupeRequest } from '../http/request';
import { attributeKey } from '../kernel/attributes';
import { type Exchange } from '../kernel/exchange';

/** What URL generation needs to know of the current request (Symfony's RequestContext). */
export interface RequestContext {
  /** The scheme generated URLs start with. */
  readonly scheme: 'http' | 'https';
  /** Lower-cased host without port; IPv6 hosts keep their brackets. */
  readonly host: string;
  /** The port the client addressed; left out of a URL when it is the scheme's default. */
  readonly port: number;
  /** The request's locale: the `_locale` a generated path gets when `params` names none. */
  readonly locale: string;
}

/**
 * Kept in the exchange rather than in the router: requests run concurrently here, unlike PHP,
 * and a router-wide "current request" would leak one request's host into another's URLs.
 */
const CONTEXT_KEY = attributeKey<RequestContext>('router.request_context');

/**
 * The context of `request`. Reads the host, so it throws the 400 for an invalid Host header;
 * the locale is read when used, because LocaleListener settles it after routing.
 */
export function requestContextFromRequest(request: LoupeRequest): RequestContext {
  const host = request.host;
  return {
    scheme: request.data.scheme,
    host,
    port: request.port,
    get locale() {
      return request.locale;
    },
  };
}

/** Records the context of `exchange`; `null` forgets it, so that its parent's applies again. */
export function setRequestContext(exchange: Exchange, context: RequestContext | null): void {
  if (context === null) exchange.attributes.delete(CONTEXT_KEY);
  else exchange.attributes.set(CONTEXT_KEY, context);
}

/**
 * The context the RouterListener recorded for `exchange`, else its parent's (an error
 * sub-request renders for its parent), else Symfony's default `http://localhost`.
 */
export function requestContextOf(exchange: Exchange): RequestContext {
  for (let current: Exchange | null = exchange; current !== null; current = current.parent) {
    const context = current.attributes.get(CONTEXT_KEY);
    if (context !== undefined) return context;
  }
  const { request } = exchange;
  return { scheme: request.data.scheme, host: 'localhost', port: request.data.scheme === 'https' ? 443 : 80, locale: request.locale };
}
