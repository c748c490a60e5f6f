import { PayloadTooLargeHttpError } from '../errors/http-error';
import { type RequestData } from '../http/request-data';
import { type Response } from '../http/response';
import { type Kernel } from '../kernel/kernel';

/** A request for inject(): as a client would send it, without a socket. */
export interface InjectRequest {
  /** The HTTP method, any case; `GET` when absent. */
  readonly method?: string;
  /** Path and query string, e.g. `/hello/ada?x=1`. */
  readonly url: string;
  /** Header names are case-insensitive; `host` defaults to the listening address, else `localhost`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The request body (a string is sent as UTF-8); `Content-Length` is set from it unless given. Over the server's limit it is refused with a 413. */
  readonly body?: string | Buffer;
  /** The client address; defaults to loopback. */
  readonly remoteAddress?: string;
}

/** What the kernel answered; header names lower-cased, repeated headers as arrays. */
export interface InjectResponse {
  /** The status code. */
  readonly status: number;
  /** Every header the response would have been written with. */
  readonly headers: Readonly<Record<string, string | string[]>>;
  /** The body decoded as UTF-8; empty for a HEAD request. */
  readonly body: string;
}

/**
 * Runs one request through the real kernel and request machine, as fastify.inject does: the same
 * copy of the request the uWS adapter makes (lower-cased headers, split query, body limit), and
 * the response as it would have been written.
 */
export function inject(kernel: Kernel, request: InjectRequest, server: { readonly port: number | null; readonly maxBodySize: number }): Promise<InjectResponse> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['host'] ??= server.port === null ? 'localhost' : `127.0.0.1:${server.port}`;
  const body = request.body === undefined ? null : Buffer.from(request.body);
  if (body !== null) headers['content-length'] ??= String(body.length);
  const query = request.url.indexOf('?');
  const tooLarge = body !== null && body.length > server.maxBodySize;
  const data: RequestData = {
    method: (request.method ?? 'GET').toUpperCase(),
    path: query === -1 ? request.url : request.url.slice(0, query),
    query: query === -1 ? '' : request.url.slice(query + 1),
    headers,
    remoteAddress: request.remoteAddress ?? '127.0.0.1',
    scheme: 'http',
    serverPort: server.port ?? 80,
    body: tooLarge ? null : body,
    bodyError: tooLarge ? new PayloadTooLargeHttpError(server.maxBodySize) : null,
  };
  return new Promise((resolve) => {
    kernel.handle(data, {
      write: (response: Response) => {
        const written: Record<string, string | string[]> = {};
        response.headers.forEachLine((_spelled, value, name) => {
          const previous = written[name];
          written[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
        });
        const { body: sent } = response;
        const text = data.method === 'HEAD' ? '' : typeof sent === 'string' ? sent : sent.toString('utf8');
        resolve({ status: response.status, headers: written, body: text });
        return true;
      },
    });
  });
}
