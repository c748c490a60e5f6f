import { type HttpRequest, type HttpResponse } from 'uWebSockets.js';
import { type RequestData } from '../http/request-data';

/**
 * Copies method, path, query, headers and peer address out of uWS; call before anything async.
 * The body, if any, is read afterwards and set on a copy.
 */
export function copyRequest(res: HttpResponse, req: HttpRequest, serverPort: number): RequestData {
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
    scheme: 'http',
    serverPort,
    body: null,
    bodyError: null,
  };
}
