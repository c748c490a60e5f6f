import { type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import { BadRequestHttpError, PayloadTooLargeHttpError } from '../errors/http-error';
import { LoupeError } from '../errors/loupe-error';
import { type Connection } from '../http/connection';
import { type RequestData } from '../http/request-data';
import { isStreamBody } from '../http/response-body';
import { statusLine } from '../http/status-text';
import { type Kernel, type RunningRequest } from '../kernel/kernel';
import { asksToClose } from './asks-to-close';
import { copyRequest } from './copy-request';
import { registerWebSocketRoute, type WebSocketRoute } from './web-socket-route';
import { type Uws } from './load-uws';
import { announcesBody, readBody } from './read-body';
import { declaredLength, streamResponse, type StreamingResponse } from './stream-response';

export interface UwsServerOptions {
  readonly host: string;
  readonly port: number;
  readonly maxBodySize: number;
  /** Told about an error that escaped the kernel (a bug), after a 500 was sent. */
  readonly onError?: (error: unknown) => void;
  /** WebSocket routes: the application's, and its plugins' (the profiler's live feed, with debug). */
  readonly webSockets?: readonly WebSocketRoute[];
  /**
   * Share the port with the other workers of a supervisor (SO_REUSEPORT: the kernel spreads the
   * connections over them) instead of holding it alone. The supervisor checked it was free.
   */
  readonly sharedPort?: boolean;
}

/**
 * uSockets' listen option. The native `listen(host, port, options, cb)` takes it, but the bundled
 * typings declare that overload only without the host, and their `ListenOptions` enum does not
 * exist at run time (the addon exports the bare constant).
 */
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;

type ExclusiveListen = {
  listen(host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void): TemplatedApp;
};

/**
 * The uWS adapter: copies each request out synchronously, attaches onAborted before anything
 * async, hands the request to the kernel and writes the response once, corked; a streamed body
 * chunk by chunk, each write corked, as the client takes them (see streamResponse).
 */
export class UwsServer {
  readonly #uws: Uws;
  readonly #app: TemplatedApp;
  readonly #kernel: Kernel;
  readonly #options: UwsServerOptions;
  #listenSocket: us_listen_socket | null = null;
  #port = 0;

  /** `uws`: as loadTunedUws answers it, loaded by the process's owner with its request-head limit. */
  constructor(kernel: Kernel, options: UwsServerOptions, uws: Uws) {
    this.#uws = uws;
    this.#kernel = kernel;
    this.#options = options;
    // One catch-all for every method: uWS derives neither HEAD from GET nor a useful 404.
    this.#app = uws.App().any('/*', (res, req) => {
      const { data, framingProblem } = copyRequest(res, req, this.#port);
      this.#onRequest(res, data, framingProblem);
    });
    for (const route of options.webSockets ?? []) registerWebSocketRoute(this.#app, route, (error) => options.onError?.(error));
  }

  /** The port actually listened on (useful with port 0). */
  get port(): number {
    return this.#port;
  }

  /**
   * Starts listening, alone on the port; resolves with the bound port. uSockets sets SO_REUSEPORT
   * by default, so a second server on a port another already serves would start and silently
   * share its connections: LIBUS_LISTEN_EXCLUSIVE_PORT makes that bind fail instead, as a port
   * held by any other process does. A worker (`sharedPort`) binds the default way.
   */
  listen(): Promise<number> {
    const { host, port, sharedPort = false } = this.#options;
    return new Promise((resolve, reject) => {
      (this.#app as TemplatedApp & ExclusiveListen).listen(host, port, sharedPort ? 0 : LIBUS_LISTEN_EXCLUSIVE_PORT, (socket) => {
        if (socket === false) {
          reject(new LoupeError('LOUPE_ERR_SERVER_LISTEN_FAILED', `Cannot listen on ${host}:${port}: the address is in use or not available.`));
          return;
        }
        this.#listenSocket = socket;
        this.#port = this.#uws.us_socket_local_port(socket);
        resolve(this.#port);
      });
    });
  }

  /** Stops accepting connections, lets in-flight requests finish (up to `graceMs`), then closes every socket. */
  async close(graceMs = 10_000): Promise<void> {
    if (this.#listenSocket !== null) {
      this.#uws.us_listen_socket_close(this.#listenSocket);
      this.#listenSocket = null;
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#kernel.whenIdle(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    this.#app.close();
  }

  #onRequest(res: HttpResponse, copied: RequestData, framingProblem: string | null): void {
    const state = { aborted: false, written: false, running: null as RunningRequest | null, unreadBody: false, stream: null as StreamingResponse | null };
    res.onAborted(() => {
      state.aborted = true;
      // A body being streamed tells the kernel itself that it was cut short; the request is past
      // the phases an abort stops.
      if (state.stream !== null) state.stream.abort();
      else state.running?.abort();
    });
    const connection: Connection = {
      write: (response, request, ended) => {
        if (state.aborted || state.written) return false;
        state.written = true;
        const head = request.data.method === 'HEAD';
        const body = response.body;
        // RFC 9112 §9.6: uWS closes the connection after this answer when it is written after its
        // parse; written during it, a request pipelined behind is still served (docs/uwebsockets.md).
        const closing = asksToClose(copied.headers);
        if (isStreamBody(body)) {
          const framing = { head, length: declaredLength(response), closing: closing || state.unreadBody };
          state.stream = streamResponse(res, response, body, framing, ended ?? (() => undefined));
          return true;
        }
        res.cork(() => {
          res.writeStatus(statusLine(response.status));
          response.headers.forEachLine((name, value, lowerCaseName) => {
            // uWS computes Content-Length itself; a second one would corrupt the response.
            if (lowerCaseName !== 'content-length') res.writeHeader(name, value);
          });
          if (head) res.endWithoutBody(Buffer.byteLength(body), closing);
          else res.end(body, closing || state.unreadBody);
        });
        return true;
      },
    };
    const start = (data: RequestData): void => {
      if (state.aborted) return;
      try {
        state.running = this.#kernel.handle(data, connection);
      } catch (error) {
        // Nothing may escape a uWS callback: a bug here answers 500 instead of killing the process.
        this.#options.onError?.(new LoupeError('LOUPE_ERR_HTTP_INTERNAL', 'A request failed outside the kernel; a 500 was sent.', { cause: error }));
        if (!state.aborted && !state.written) {
          state.written = true;
          res.cork(() => res.writeStatus(statusLine(500)).writeHeader('Content-Type', 'text/plain; charset=UTF-8').end('Internal Server Error'));
        }
      }
    };
    if (framingProblem !== null) {
      // RFC 9112 §6.3: 400, then close, the body unread. On the loop's next turn, never at once:
      // uWS goes on parsing what it already read, and a request hidden in the body, met behind a
      // pending response, makes it close the connection unanswered rather than run that request.
      state.unreadBody = true;
      const bodyError = new BadRequestHttpError(framingProblem, { code: 'LOUPE_ERR_HTTP_INVALID_FRAMING' });
      // Set on the copy itself, which already has the field: a spread into a new object would cost microseconds on Node 20.
      setImmediate(() => start(Object.assign(copied, { bodyError })));
      return;
    }
    if (!announcesBody(copied.headers)) return start(copied);
    readBody(res, copied.headers, this.#options.maxBodySize, ({ body, tooLarge }) => {
      // The rest of a refused body is never read: close the connection after answering.
      state.unreadBody = tooLarge;
      start(Object.assign(copied, { body, bodyError: tooLarge ? new PayloadTooLargeHttpError(this.#options.maxBodySize) : null }));
    });
  }
}
