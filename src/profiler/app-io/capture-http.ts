import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { ClientRequest, type IncomingMessage } from 'node:http';
import { requestContext } from '../../kernel/request-context';
import { AppIoKinds, type HttpCallEntry } from './app-io-entries';
import { captureOrigin, STACK_DEPTH, StackReach, type CallOrigin } from './capture-origin';
import { closeCall, openCall, type OpenCall } from './open-call';
import { wrapMethod } from './wrap-method';

/** What undici publishes of a request (undici's `Request`; its headers are a flat name, value… array). */
interface UndiciRequest {
  readonly origin: string;
  readonly method: string;
  readonly path: string;
  readonly headers: readonly string[] | string;
  /** Bytes of the body when undici knows them (fetch's string and byte bodies); `null` for a stream. */
  readonly contentLength?: number | null;
}

interface UndiciResponse {
  readonly statusCode: number;
  readonly headers: readonly (Buffer | string)[];
}

/** A flat `[name, value, name, value…]` list (or undici 5's raw header block) as a record, repeated names joined. */
function headerRecord(headers: readonly (Buffer | string)[] | string): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string): void => {
    const key = name.toLowerCase();
    out[key] = out[key] === undefined ? value : `${out[key]}, ${value}`;
  };
  if (typeof headers === 'string') {
    for (const line of headers.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) add(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    return out;
  }
  for (let i = 0; i + 1 < headers.length; i += 2) add(String(headers[i]), String(headers[i + 1]));
  return out;
}

function sizeOf(headers: Readonly<Record<string, string>>): number | null {
  const length = headers['content-length'];
  return length === undefined || !/^\d+$/.test(length) ? null : Number(length);
}

function httpEntry(client: string, method: string, url: string, requestHeaders: Record<string, string>, requestSize: number | null = sizeOf(requestHeaders)) {
  return (start: number, origin: HttpCallEntry['origin']): HttpCallEntry => ({
    start,
    duration: null,
    error: null,
    origin,
    client,
    method,
    url,
    requestHeaders,
    status: 0,
    responseHeaders: {},
    requestSize,
    responseSize: null,
  });
}

function respond(call: OpenCall<HttpCallEntry>, status: number, headers: Record<string, string>): void {
  call.entry.status = status;
  call.entry.responseHeaders = headers;
  call.entry.responseSize = sizeOf(headers);
}

/** Frames looked at for a fetch's origin: Node's fetch runs some twenty frames of undici before it publishes. */
const FETCH_STACK_DEPTH = 48;

// Later events of a call run in the socket's context: the call is found by its request object.
const undiciCalls = new WeakMap<object, OpenCall<HttpCallEntry>>();
const httpCalls = new WeakMap<object, OpenCall<HttpCallEntry>>();
/** Where the application ended each ClientRequest: node:http publishes its start later, from the socket's tick. */
const httpOrigins = new WeakMap<object, CallOrigin>();
/** How deep the application's frame lies where a ClientRequest is ended. */
const endReach = new StackReach();

/**
 * Takes the origin of a node:http call where the application (or its library) ends the request,
 * synchronously; Node 22.12+ publishes `http.client.request.created` there, Node 20 does not.
 */
function recordHttpOrigins(): () => void {
  return wrapMethod(ClientRequest.prototype as unknown as Record<string, unknown>, 'end', (original) =>
    function (this: unknown, ...args: unknown[]) {
      if (typeof this === 'object' && this !== null && requestContext.getStore() !== undefined && !httpOrigins.has(this)) {
        const origin = captureOrigin(STACK_DEPTH, endReach);
        httpOrigins.set(this, origin);
        const call = httpCalls.get(this);
        // The start, published first, may have found only the request's position.
        if (call !== undefined && call.entry.origin.found === 'request') call.entry.origin = origin;
      }
      return original.apply(this, args);
    },
  );
}

const undiciHandlers: Readonly<Record<string, (message: unknown) => void>> = {
  'undici:request:create': (message) => {
    const { request } = message as { request: UndiciRequest };
    const call = openCall('undici', AppIoKinds.HTTP, 'http', `${request.method} ${request.origin}${request.path}`, httpEntry('fetch', request.method, `${request.origin}${request.path}`, headerRecord(request.headers), typeof request.contentLength === 'number' ? request.contentLength : null),
      FETCH_STACK_DEPTH,
    );
    if (call !== null) undiciCalls.set(request, call);
  },
  'undici:request:headers': (message) => {
    const { request, response } = message as { request: object; response: UndiciResponse };
    const call = undiciCalls.get(request);
    if (call !== undefined) respond(call, response.statusCode, headerRecord(response.headers));
  },
  // The body was read to its end: the call is over (a body never read leaves it running).
  'undici:request:trailers': (message) => {
    const call = undiciCalls.get((message as { request: object }).request);
    if (call !== undefined) closeCall(call);
  },
  'undici:request:error': (message) => {
    const { request, error } = message as { request: object; error: unknown };
    const call = undiciCalls.get(request);
    if (call !== undefined) closeCall(call, error);
  },
};

/** The URL a node:http ClientRequest goes to: its Host header carries the port when it is not the default. */
function urlOf(request: ClientRequest): string {
  const header = request.getHeader('host');
  const host = typeof header === 'string' && header !== '' ? header : request.host.includes(':') ? `[${request.host}]` : request.host;
  return `${request.protocol}//${host}${request.path}`;
}

function requestHeadersOf(request: ClientRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.getHeaders())) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

function responseHeadersOf(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const httpHandlers: Readonly<Record<string, (message: unknown) => void>> = {
  'http.client.request.start': (message) => {
    const { request } = message as { request: ClientRequest };
    const url = urlOf(request);
    const call = openCall('node:http', AppIoKinds.HTTP, 'http', `${request.method} ${url}`, httpEntry('http', request.method, url, requestHeadersOf(request)));
    if (call === null) return;
    httpCalls.set(request, call);
    call.entry.origin = httpOrigins.get(request) ?? call.entry.origin;
  },
  'http.client.response.finish': (message) => {
    const { request, response } = message as { request: object; response: IncomingMessage };
    const call = httpCalls.get(request);
    if (call === undefined) return;
    respond(call, response.statusCode ?? 0, responseHeadersOf(response));
    // `finish` comes with the response's headers; the body is the application's to read from here on.
    if (response.complete) closeCall(call);
    else {
      response.once('end', () => closeCall(call));
      response.once('close', () => closeCall(call));
    }
  },
  'http.client.request.error': (message) => {
    const { request, error } = message as { request: object; error: unknown };
    const call = httpCalls.get(request);
    if (call !== undefined) closeCall(call, error);
  },
};

function subscribeAll(handlers: Readonly<Record<string, (message: unknown) => void>>): () => void {
  for (const [name, handler] of Object.entries(handlers)) subscribe(name, handler);
  return () => {
    for (const [name, handler] of Object.entries(handlers)) unsubscribe(name, handler);
  };
}

/** Captures outgoing HTTP: global `fetch` and undici, and node:http / https clients. Answers how to stop. */
export function captureHttp(): () => void {
  const stops = [subscribeAll(undiciHandlers), subscribeAll(httpHandlers), recordHttpOrigins()];
  return () => stops.forEach((stop) => stop());
}
