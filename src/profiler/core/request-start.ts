import { type RequestData } from '../../http/request-data';
import { LoupeResponse } from '../../http/response';

/** A header as Node's `http` module gives it: one value, several, or a number it set itself. */
type HeaderValue = string | number | readonly string[] | undefined;

/** What a server tells the profiler of a request as it starts: all of it plain data, copied out of the server's own objects. */
export interface RequestStart {
  /** The method as sent, e.g. `GET`. */
  readonly method: string;
  /** The request target as sent: the path, still percent-encoded, and the query string (`/items?page=2`). */
  readonly url: string;
  /** Header names in any case (Node's `req.headers`); several values of one header are joined with `, `. */
  readonly headers: Readonly<Record<string, HeaderValue>>;
  /** The client's address (`req.socket.remoteAddress`); empty when unknown. */
  readonly remoteAddress?: string;
  readonly scheme?: 'http' | 'https';
  /** The local port the request came in on; used when the Host header names none. */
  readonly serverPort?: number;
  /** The body, when the server read it before the handler; `null` otherwise. */
  readonly body?: Buffer | null;
}

/** What a server tells the profiler of the response it sent. */
export interface ResponseEnd {
  readonly status: number;
  /** The headers sent (Node's `res.getHeaders()`). */
  readonly headers?: Readonly<Record<string, HeaderValue>>;
  /** The body, when the server has it whole (the profiler shows its size and, for text, its start); none for a stream. */
  readonly body?: string | Buffer | null;
}

/** One header's value as text: several values joined with `, ` (RFC 9110 §5.3), a number written out. */
function headerText(value: HeaderValue): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : value.join(', ');
}

/** Headers with lower-case names and text values; absent ones left out. */
export function plainHeaders(headers: Readonly<Record<string, HeaderValue>> = {}): Record<string, string> {
  const plain: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = headerText(value);
    if (text !== undefined) plain[name.toLowerCase()] = text;
  }
  return plain;
}

/** The request data Loupe's Request reads, from what a server tells of its request. */
export function requestDataOf(start: RequestStart): RequestData {
  const question = start.url.indexOf('?');
  const path = question === -1 ? start.url : start.url.slice(0, question);
  return {
    method: start.method.toUpperCase(),
    path: path === '' ? '/' : path,
    query: question === -1 ? '' : start.url.slice(question + 1),
    headers: plainHeaders(start.headers),
    remoteAddress: start.remoteAddress ?? '',
    scheme: start.scheme ?? 'http',
    serverPort: start.serverPort ?? 0,
    body: start.body ?? null,
    bodyError: null,
  };
}

/** The response the collectors read, from what a server tells of the one it sent. */
export function responseOf(end: ResponseEnd): LoupeResponse {
  const body = end.body ?? '';
  return new LoupeResponse(body, end.status, plainHeaders(end.headers));
}
