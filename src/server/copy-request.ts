import { type HttpRequest, type HttpResponse } from 'uWebSockets.js';
import { type RequestData } from '../http/request-data';
import { findFramingProblem } from './find-framing-problem';

/** A request copied out of uWS, and why its body's framing cannot be trusted (or `null`). */
export interface CopiedRequest {
  readonly data: RequestData;
  readonly framingProblem: string | null;
}

/**
 * Copies method, path, query, headers and peer address out of uWS; call before anything async.
 * Repeated header lines are joined with ", " (RFC 9110 §5.3), except that the framing headers
 * are checked line by line first: joined, two Transfer-Encoding lines would read as one.
 * The body, if any, is read afterwards and set on it.
 */
export function copyRequest(res: HttpResponse, req: HttpRequest, serverPort: number): CopiedRequest {
  const headers: Record<string, string> = {};
  const contentLength: string[] = [];
  const transferEncoding: string[] = [];
  req.forEach((name, value) => {
    if (name === 'content-length') contentLength.push(value);
    else if (name === 'transfer-encoding') transferEncoding.push(value);
    const previous = headers[name];
    headers[name] = previous === undefined ? value : `${previous}, ${value}`;
  });
  const data: RequestData = {
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
  const framed = contentLength.length + transferEncoding.length > 0;
  return { data, framingProblem: framed ? findFramingProblem({ contentLength, transferEncoding }) : null };
}
