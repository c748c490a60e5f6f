import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type Context } from 'hono';
import { type RequestStart } from '../../core/request-start';
import { requestStartOf } from '../request-start-of';

/** What `@hono/node-server` gives the application as `c.env`: Node's request and response. */
export interface NodeBindings {
  readonly incoming: IncomingMessage;
  readonly outgoing: ServerResponse;
}

/** `c.env` as `@hono/node-server` makes it, else `null` (another runtime, or `app.fetch()` called directly). */
export function nodeBindingsOf(c: Context): NodeBindings | null {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null || !('incoming' in env) || !('outgoing' in env)) return null;
  const { incoming, outgoing } = env;
  const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
  if (!isObject(incoming) || !isObject(outgoing) || !('socket' in incoming) || !('once' in outgoing)) return null;
  return { incoming: incoming as IncomingMessage, outgoing: outgoing as ServerResponse };
}

/**
 * What the profiler is told of the request of `c`: on `@hono/node-server`, read from Node's own
 * request (the target as sent, the client's address); elsewhere from the web Request, the client's
 * address from `clientAddress` when given (none otherwise: then no client is one of PROFILER_ALLOWED_IPS).
 */
export function honoRequestStart(c: Context, node: NodeBindings | null, clientAddress: ((c: Context) => string | undefined) | undefined): RequestStart {
  const address = clientAddress?.(c);
  if (node !== null) {
    const start = requestStartOf(node.incoming);
    return { ...start, method: c.req.method, ...(address === undefined ? {} : { remoteAddress: address }) };
  }
  const url = new URL(c.req.url);
  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  return {
    method: c.req.method,
    url: `${url.pathname}${url.search}`,
    // A Request made in code (app.fetch, app.request) may carry no Host: its URL has one.
    headers: { host: url.host, ...Object.fromEntries(c.req.raw.headers) },
    remoteAddress: address ?? '',
    scheme,
    serverPort: url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port),
  };
}
