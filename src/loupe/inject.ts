import { performance } from 'node:perf_hooks';
import { PayloadTooLargeHttpError } from '../errors/http-error';
import { openBodySource } from '../http/body-source';
import { type RequestData } from '../http/request-data';
import { type LoupeResponse } from '../http/response';
import { discardBody, isStreamBody, type StreamBody, type StreamOutcome } from '../http/response-body';
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
  /** The body decoded as UTF-8, a streamed body read to its end; empty for a HEAD request. */
  readonly body: string;
}

/** The header lines as InjectResponse has them. */
function headersOf(response: LoupeResponse): Record<string, string | string[]> {
  const written: Record<string, string | string[]> = {};
  response.headers.forEachLine((_spelled, value, name) => {
    const previous = written[name];
    written[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  });
  return written;
}

/**
 * Reads a streamed body to its end, as a client would, and tells the kernel how it went (the
 * profile records it). Rejects with the source's error, as a client sees the connection close.
 */
async function collectStream(body: StreamBody, ended: (outcome: StreamOutcome) => void): Promise<Buffer> {
  const source = openBodySource(body);
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let firstByteAt: number | null = null;
  try {
    for (let chunk = await source.read(); chunk !== null; chunk = await source.read()) {
      firstByteAt ??= performance.now();
      chunks.push(chunk);
      bytes += chunk.byteLength;
    }
  } catch (error) {
    source.cancel();
    ended({ bytes, firstByteAt, endedAt: performance.now(), aborted: false, failed: true, error });
    throw error;
  }
  ended({ bytes, firstByteAt: firstByteAt ?? performance.now(), endedAt: performance.now(), aborted: false, failed: false, error: null });
  return Buffer.concat(chunks, bytes);
}

/**
 * Runs one request through the real kernel and request machine, as fastify.inject does: the same
 * copy of the request the uWS adapter makes (lower-cased headers, split query, body limit), and
 * the response as it would have been written, a streamed body read to its end (the promise
 * rejects with the error of a stream that fails).
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
  const head = data.method === 'HEAD';
  return new Promise((resolve, reject) => {
    kernel.handle(data, {
      write: (response: LoupeResponse, _request, ended) => {
        const { body: sent, status } = response;
        const headers = headersOf(response);
        if (!isStreamBody(sent)) {
          resolve({ status, headers, body: head ? '' : typeof sent === 'string' ? sent : sent.toString('utf8') });
          return true;
        }
        const report = ended ?? ((): void => undefined);
        if (head) {
          discardBody(sent);
          const now = performance.now();
          report({ bytes: 0, firstByteAt: now, endedAt: now, aborted: false, failed: false, error: null });
          resolve({ status, headers, body: '' });
          return true;
        }
        collectStream(sent, report).then((bytes) => resolve({ status, headers, body: bytes.toString('utf8') }), reject);
        return true;
      },
    });
  });
}
