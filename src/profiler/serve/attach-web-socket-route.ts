import { type IncomingMessage, type Server } from 'node:http';
import { type Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { statusLine } from '../../http/status-text';
import { type WebSocketClient, type WebSocketRoute } from '../../server/web-socket-route';

/** Bytes a client may have waiting, as the uWS server allows: past it, messages are dropped for that client alone. */
const MAX_BACKPRESSURE = 256 * 1024;

/** RFC 6455 §7.4.1: the server is going away. */
const GOING_AWAY = 1001;

/** A WebSocket route served by a node:http server; `close()` ends every client. */
export interface AttachedWebSocketRoute {
  close(): void;
}

/**
 * Answers an upgrade that is not accepted with a plain HTTP response, then closes the socket. Not
 * ws's own refusal: it answers `text/html`, and the route's messages quote the client's Host.
 */
function refuse(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const body = Buffer.from(message, 'utf8');
  socket.end(`HTTP/1.1 ${statusLine(status)}\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${message}`);
}

/** Whether `socket` can be sent a message: open, and reading fast enough. */
function keepsUp(socket: WebSocket): boolean {
  return socket.readyState === socket.OPEN && socket.bufferedAmount <= MAX_BACKPRESSURE;
}

/**
 * Serves `route` on a node:http server as `registerWebSocketRoute` does on uWS, with ws: the
 * upgrade is checked (`refuse`), waits for `ready`, then ws checks the handshake (RFC 6455 §4.2.1)
 * and reads the frames, answers pings and closes (1009 past `maxPayloadLength`, default 1 KiB).
 * A message published reaches every client that keeps up. The server's upgrades of other paths
 * are left to its other `upgrade` listeners (an application's own WebSockets), or get a 404 when
 * it has none. Text messages only.
 */
export function attachWebSocketRoute(server: Server, route: WebSocketRoute, onError: (error: unknown) => void): AttachedWebSocketRoute {
  // No compression, as on uWS: a deflate context per client costs more than the short summaries save.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: route.maxPayloadLength ?? 1024, perMessageDeflate: false });
  route.start?.((message) => {
    for (const socket of sockets.clients) if (keepsUp(socket)) socket.send(message);
  });

  const open = (socket: WebSocket): void => {
    const client: WebSocketClient = {
      send: (message) => {
        if (!keepsUp(socket)) return false;
        socket.send(message);
        return true;
      },
      end: () => socket.close(1000),
    };
    // A client's protocol error (an unmasked frame, a message too big) is its own: ws closes
    // that connection with the code it calls for, and an 'error' with no listener would throw.
    socket.on('error', () => undefined);
    socket.on('message', (data, isBinary) => {
      // binaryType 'nodebuffer' (ws's default) gives a message as one Buffer.
      if (!isBinary && Buffer.isBuffer(data)) route.message?.(client, data.toString('utf8'));
    });
    socket.on('close', () => {
      // A closed socket is written to no more: the client object says so from now on.
      client.send = () => false;
      client.end = () => undefined;
      route.close?.(client);
    });
    route.open?.(client);
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const path = (req.url ?? '').split('?')[0];
    // An application's server may serve WebSockets of its own (socket.io, ws): theirs are left to them.
    if (path !== route.path && server.listenerCount('upgrade') > 1) return;
    // A reset client is no error of the server's; 'close' follows it.
    socket.on('error', () => undefined);
    if (path !== route.path) return refuse(socket, 404, `No WebSocket at ${path ?? ''}.`);
    // ws also takes version 8 (hybi-08), whose browsers sent the page's origin as Sec-WebSocket-Origin.
    const origin = req.headers.origin ?? req.headers['sec-websocket-origin'] ?? '';
    const refused = route.refuse?.({ address: req.socket.remoteAddress ?? '', host: req.headers.host ?? '', origin: Array.isArray(origin) ? origin.join(',') : origin }) ?? null;
    if (refused !== null) return typeof refused === 'string' ? refuse(socket, 403, refused) : refuse(socket, refused.status, refused.message);
    (route.ready?.() ?? Promise.resolve()).then(
      () => {
        if (!socket.destroyed) sockets.handleUpgrade(req, socket, head, open);
      },
      (error: unknown) => {
        onError(error);
        refuse(socket, 503, route.unavailable ?? 'This WebSocket is unavailable.');
      },
    );
    return undefined;
  };
  server.on('upgrade', onUpgrade);

  return {
    close: () => {
      server.off('upgrade', onUpgrade);
      // New upgrades get a 503 from ws; a client that does not close its side within a second is dropped.
      sockets.close();
      for (const socket of sockets.clients) {
        socket.close(GOING_AWAY);
        setTimeout(() => socket.terminate(), 1_000).unref();
      }
    },
  };
}
