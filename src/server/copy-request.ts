import { type HttpRequest, type HttpResponse } from 'uWebSockets.js';

/** What can be read of a request synchronously, before uWS reclaims its stack-allocated object. */
export interface CopiedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly remoteAddress: string;
}

/** Copies method, path, query, headers and peer address out of uWS; call before anything async. */
export function copyRequest(res: HttpResponse, req: HttpRequest): CopiedRequest {
  const headers: Record<string, string> = {};
  req.forEach((name, value) => {
    const previous = headers[name];
    headers[name] = previous === undefined ? value : `${previous}, ${value}`;
  });
  return {
    method: req.getCaseSensitiveMethod().toUpperCase(),
    path: req.getUrl(),
    query: req.getQuery() ?? '',
    headers,
    remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString(),
  };
}
