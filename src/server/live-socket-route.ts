import { type HttpResponse, type TemplatedApp } from 'uWebSockets.js';
import { statusLine } from '../http/status-text';

/** A WebSocket route that forwards a feed of messages to every connected client. */
export interface LiveSocketOptions {
  readonly path: string;
  /** Whether a client address may connect (PROFILER_ALLOWED_IPS); refused ones get a 403. */
  readonly isAllowed: (address: string) => boolean;
  /** Resolves once messages flow (the feed subscribed); a client is upgraded only then, so it misses nothing sent after it connected. */
  readonly ready: () => Promise<void>;
  /** Registers the callback that gets each message of the feed. */
  readonly subscribe: (send: (message: string) => void) => void;
  /** Told why a client could not be upgraded because the feed did not start. */
  readonly onError?: (error: unknown) => void;
}

const TOPIC = 'live';
/**
 * Bytes a client may have waiting; past it uWS skips that client when publishing (the messages
 * are dropped for it alone), so a slow browser never makes the server buffer without bound.
 */
const MAX_BACKPRESSURE = 256 * 1024;

function refuse(res: HttpResponse, status: number, message: string): void {
  res.cork(() => res.writeStatus(statusLine(status)).writeHeader('Content-Type', 'text/plain; charset=UTF-8').end(message));
}

/**
 * A browser sends Origin with every WebSocket handshake, and WebSockets are not held to the
 * same-origin policy: without this check any page the developer opens could read the feed.
 * Clients that send none (the CLI, scripts) are judged by their address alone.
 */
function isSameOrigin(origin: string, host: string): boolean {
  if (origin === '') return true;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Registers the WebSocket route on `app` (uWS's own `ws()`): the client's address is checked
 * in the upgrade handler, every client subscribes to one uWS topic, and each feed message is
 * published to it once. A plain GET of the path falls through to the application's routes.
 */
export function registerLiveSocket(app: TemplatedApp, options: LiveSocketOptions): void {
  options.subscribe((message) => app.publish(TOPIC, message, false));
  app.ws<Record<string, never>>(options.path, {
    maxPayloadLength: 1024,
    maxBackpressure: MAX_BACKPRESSURE,
    closeOnBackpressureLimit: 0,
    idleTimeout: 120,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      // Copied before anything async: the request is only valid in this callback.
      const address = Buffer.from(res.getRemoteAddressAsText()).toString();
      const key = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      if (!options.isAllowed(address)) {
        refuse(res, 403, `The profiler is not available to the client address "${address}": it is outside PROFILER_ALLOWED_IPS.`);
        return;
      }
      if (!isSameOrigin(req.getHeader('origin'), req.getHeader('host'))) {
        refuse(res, 403, 'The live profile feed only accepts pages of its own origin.');
        return;
      }
      let aborted = false;
      res.onAborted(() => (aborted = true));
      options.ready().then(
        () => {
          if (!aborted) res.cork(() => res.upgrade({}, key, protocol, extensions, context));
        },
        (error: unknown) => {
          options.onError?.(error);
          if (!aborted) refuse(res, 503, 'The live profile feed is unavailable: Redis did not answer.');
        },
      );
    },
    open: (ws) => {
      ws.subscribe(TOPIC);
    },
  });
}
