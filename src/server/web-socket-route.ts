import { type HttpResponse, type TemplatedApp } from 'uWebSockets.js';
import { statusLine } from '../http/status-text';

/** Who asks to open a WebSocket: copied out of the upgrade request. */
export interface WebSocketUpgrade {
  /** The client's address, as uWS gives it. */
  readonly address: string;
  /** The `Host` header; empty when the client sent none. */
  readonly host: string;
  /** Empty when the client sent none (a script, the CLI); browsers always send one. */
  readonly origin: string;
}

/** One connected client of a WebSocket route. */
export interface WebSocketClient {
  /** Sends a text message; false when it was dropped (the client reads too slowly) or the socket is closed. */
  send(message: string): boolean;
  /** Closes the connection. */
  end(): void;
}

/**
 * A WebSocket route (uWS's own `ws()`): an application's or a plugin's, such as the profiler's
 * live feed. Every client of a route can be sent one message at once with the `publish` that
 * `start` receives (uWS publishes it to a topic once, whatever the number of clients).
 */
export interface WebSocketRoute {
  /** The path clients connect to, e.g. `/_profiler/live`; a plain GET of it goes to the HTTP routes. */
  readonly path: string;
  /** Refuses an upgrade: answers the 403's message (or a status of its own with its message), or `null` to let the client in. */
  refuse?(upgrade: WebSocketUpgrade): string | { readonly status: number; readonly message: string } | null;
  /** Resolves once the route can serve; a client is upgraded only then (a rejection answers 503 with `unavailable`). */
  ready?(): Promise<void>;
  /** The 503's message when `ready` rejected. */
  readonly unavailable?: string;
  /** Called once when the server starts, with the function that sends a message to every client. */
  start?(publish: (message: string) => void): void;
  /** Called when a client is connected; it already receives what `publish` sends. */
  open?(client: WebSocketClient): void;
  /** Called with each text message a client sends, decoded as UTF-8. */
  message?(client: WebSocketClient, message: string): void;
  /** Called once a client is gone; its `send` answers false from then on. */
  close?(client: WebSocketClient): void;
  /** Longest message a client may send, in bytes (default 1 KiB). */
  readonly maxPayloadLength?: number;
}

/**
 * Bytes a client may have waiting; past it uWS skips that client when publishing (the messages
 * are dropped for it alone), so a slow browser never makes the server buffer without bound.
 */
const MAX_BACKPRESSURE = 256 * 1024;

function refuse(res: HttpResponse, status: number, message: string): void {
  res.cork(() => res.writeStatus(statusLine(status)).writeHeader('Content-Type', 'text/plain; charset=UTF-8').end(message));
}

interface ClientData {
  client?: WebSocketClient;
}

/**
 * Registers `route` on `app`: the upgrade is checked (`refuse`) with what was copied of the
 * request, waits for `ready`, and every client subscribes to the route's topic, so that a
 * published message is written once. A plain GET of the path falls through to the kernel's routes.
 */
export function registerWebSocketRoute(app: TemplatedApp, route: WebSocketRoute, onError: (error: unknown) => void): void {
  const topic = `loupe-ws:${route.path}`;
  route.start?.((message) => app.publish(topic, message, false));
  app.ws<ClientData>(route.path, {
    maxPayloadLength: route.maxPayloadLength ?? 1024,
    maxBackpressure: MAX_BACKPRESSURE,
    closeOnBackpressureLimit: 0,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      // Copied before anything async: the request is only valid in this callback.
      const upgrade = { address: Buffer.from(res.getRemoteAddressAsText()).toString(), host: req.getHeader('host'), origin: req.getHeader('origin') };
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const refused = route.refuse?.(upgrade) ?? null;
      if (refused !== null) {
        if (typeof refused === 'string') refuse(res, 403, refused);
        else refuse(res, refused.status, refused.message);
        return;
      }
      let aborted = false;
      res.onAborted(() => (aborted = true));
      (route.ready?.() ?? Promise.resolve()).then(
        () => {
          if (!aborted) res.cork(() => res.upgrade<ClientData>({}, key, protocol, extensions, context));
        },
        (error: unknown) => {
          onError(error);
          if (!aborted) refuse(res, 503, route.unavailable ?? 'This WebSocket is unavailable.');
        },
      );
    },
    open: (ws) => {
      ws.subscribe(topic);
      const client: WebSocketClient = {
        send: (message) => ws.send(message, false) === 1,
        end: () => ws.end(),
      };
      ws.getUserData().client = client;
      route.open?.(client);
    },
    message: (ws, message) => {
      const { client } = ws.getUserData();
      if (client !== undefined) route.message?.(client, Buffer.from(message).toString('utf8'));
    },
    close: (ws) => {
      const { client } = ws.getUserData();
      if (client === undefined) return;
      // A closed socket must not be written to (uWS throws): the client object says so from now on.
      client.send = () => false;
      client.end = () => {};
      route.close?.(client);
    },
  });
}
