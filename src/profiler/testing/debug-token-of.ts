import { AssertionError } from 'node:assert';

/** A WHATWG `Headers` (fetch, undici, Hono's `app.request`): read through `get`. */
interface HeadersLike {
  get(name: string): string | null;
}

/**
 * What carries a profile's token: the token itself, or a response with headers — a fetch
 * `Response`, the result of Loupe's `inject` or Fastify's, a node:http `IncomingMessage`, a
 * supertest response.
 */
export type DebugTokenSource = string | { readonly headers: HeadersLike | Readonly<Record<string, string | readonly string[] | number | undefined>> };

const HEADER = 'x-debug-token';

function isHeadersLike(headers: object): headers is HeadersLike {
  return typeof (headers as { get?: unknown }).get === 'function';
}

/** The X-Debug-Token of `source`, or an AssertionError saying why a response has none. */
export function debugTokenOf(source: DebugTokenSource): string {
  if (typeof source === 'string') return source;
  const { headers } = source;
  let value: unknown;
  if (isHeadersLike(headers)) value = headers.get(HEADER);
  else {
    // Header records are lower-cased by node:http and inject; a hand-made one may not be.
    const name = Object.keys(headers).find((key) => key.toLowerCase() === HEADER);
    value = name === undefined ? undefined : headers[name];
  }
  const token = Array.isArray(value) ? value[0] : value;
  if (typeof token === 'string' && token !== '') return token;
  throw new AssertionError({
    message: 'The response has no X-Debug-Token header: the server profiles with debug on (APP_DEBUG=1, or a profiler adapter outside production), and PROFILER_SAMPLE below 1 leaves some requests without a profile.',
    operator: 'expectProfile',
  });
}
