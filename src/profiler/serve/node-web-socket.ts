import { createHash } from 'node:crypto';
import { type IncomingMessage, type Server } from 'node:http';
import { type Duplex } from 'node:stream';
import { statusLine } from '../../http/status-text';
import { type WebSocketClient, type WebSocketRoute } from '../../server/web-socket-route';
import { closeFrame, encodeFrame, FrameReader, OPCODE } from './web-socket-frames';

/** RFC 6455 §1.3: appended to the client's key, hashed, to accept the handshake. */
const HANDSHAKE_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** Bytes a client may have waiting, as the uWS server allows: past it, messages are dropped for that client alone. */
const MAX_BACKPRESSURE = 256 * 1024;

/** A WebSocket route served by a node:http server; `close()` ends every client. */
export interface AttachedWebSocketRoute {
  close(): void;
}

/** Answers an upgrade that is not accepted with a plain HTTP response, then closes the socket. */
function refuse(socket: Duplex, status: number, message: string): void {
  if (socket.destroyed) return;
  const body = Buffer.from(message, 'utf8');
  socket.end(`HTTP/1.1 ${statusLine(status)}\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${message}`);
}

/** Why the request is no WebSocket handshake of version 13 (RFC 6455 §4.2.1), or `null`. */
function handshakeProblem(req: IncomingMessage): string | null {
  if (req.method !== 'GET') return 'A WebSocket handshake is a GET.';
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return 'Upgrade: websocket is required.';
  if (req.headers['sec-websocket-version'] !== '13') return 'Only Sec-WebSocket-Version 13 is served.';
  if (!/^[A-Za-z0-9+/]{22}==$/.test(req.headers['sec-websocket-key'] ?? '')) return 'Sec-WebSocket-Key must be 16 bytes in base64.';
  return null;
}

/**
 * Serves `route` on a node:http server as `registerWebSocketRoute` does on uWS: the upgrade is
 * checked (`refuse`), waits for `ready`, and a message published reaches every client that keeps
 * up. The server's own upgrades of other paths get a 404. Text messages only; frames from clients
 * are read for close, ping and the route's `message`, at most `maxPayloadLength` bytes each.
 */
export function attachWebSocketRoute(server: Server, route: WebSocketRoute, onError: (error: unknown) => void): AttachedWebSocketRoute {
  const sockets = new Map<Duplex, WebSocketClient>();
  const maxPayload = route.maxPayloadLength ?? 1024;
  route.start?.((message) => {
    const frame = encodeFrame(OPCODE.text, message);
    for (const socket of sockets.keys()) if (socket.writableLength <= MAX_BACKPRESSURE) socket.write(frame);
  });

  const open = (socket: Duplex, head: Buffer): void => {
    const client: WebSocketClient = {
      send: (message) => {
        if (socket.destroyed || socket.writableLength > MAX_BACKPRESSURE) return false;
        socket.write(encodeFrame(OPCODE.text, message));
        return true;
      },
      end: () => {
        if (!socket.destroyed) socket.end(closeFrame(1000));
      },
    };
    sockets.set(socket, client);
    const reader = new FrameReader(maxPayload);
    let text: Buffer[] = [];
    const read = (chunk: Buffer): void => {
      const frames = reader.push(chunk);
      if (!Array.isArray(frames)) {
        socket.end(closeFrame(frames.code, frames.reason));
        return;
      }
      for (const frame of frames) {
        if (frame.opcode === OPCODE.close) {
          socket.end(closeFrame(1000));
          return;
        }
        if (frame.opcode === OPCODE.ping) socket.write(encodeFrame(OPCODE.pong, frame.payload));
        if (frame.opcode === OPCODE.text || (frame.opcode === OPCODE.continuation && text.length > 0)) {
          text.push(frame.payload);
          if (text.reduce((size, part) => size + part.length, 0) > maxPayload) {
            socket.end(closeFrame(1009, 'message too big'));
            return;
          }
          if (frame.fin) {
            const message = Buffer.concat(text).toString('utf8');
            text = [];
            route.message?.(client, message);
          }
        }
      }
    };
    socket.on('data', read);
    socket.on('close', () => {
      sockets.delete(socket);
      // A closed socket is written to no more: the client object says so from now on.
      client.send = () => false;
      client.end = () => undefined;
      route.close?.(client);
    });
    route.open?.(client);
    if (head.length > 0) read(head);
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A reset client is no error of the server's; 'close' follows it.
    socket.on('error', () => undefined);
    const path = (req.url ?? '').split('?')[0];
    if (path !== route.path) return refuse(socket, 404, `No WebSocket at ${path ?? ''}.`);
    const problem = handshakeProblem(req);
    if (problem !== null) return refuse(socket, 400, problem);
    const refused = route.refuse?.({ address: req.socket.remoteAddress ?? '', host: req.headers.host ?? '', origin: req.headers.origin ?? '' }) ?? null;
    if (refused !== null) return typeof refused === 'string' ? refuse(socket, 403, refused) : refuse(socket, refused.status, refused.message);
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key'] ?? ''}${HANDSHAKE_GUID}`).digest('base64');
    (route.ready?.() ?? Promise.resolve()).then(
      () => {
        if (socket.destroyed) return;
        socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
        open(socket, head);
      },
      (error: unknown) => {
        onError(error);
        refuse(socket, 503, route.unavailable ?? 'This WebSocket is unavailable.');
      },
    );
    return undefined;
  });

  return {
    close: () => {
      // 1001: the server is going away (RFC 6455 §7.4.1); a client that does not close its side within a second is dropped.
      for (const socket of sockets.keys()) {
        socket.end(closeFrame(1001));
        setTimeout(() => socket.destroy(), 1_000).unref();
      }
    },
  };
}
