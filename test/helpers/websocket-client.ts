import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { type Socket } from 'node:net';

/** An open WebSocket: the text messages received so far, and a way to wait for one. */
export interface TestWebSocket {
  readonly messages: string[];
  /** Resolves with the first message (received already or later) that `accept` accepts; rejects after `ms`. */
  waitFor(accept: (message: string) => boolean, ms?: number): Promise<string>;
  /** Resolves once the server closed the connection. */
  readonly closed: Promise<void>;
  /** Sends a text message (short: under 126 bytes), masked as a client must (RFC 6455 §5.3). */
  send(text: string): void;
  close(): void;
}

/** The refusal of a handshake: its status and body. */
export interface RefusedUpgrade {
  readonly status: number;
  readonly body: string;
}

/**
 * Opens a WebSocket to `path` on 127.0.0.1:`port` with a plain HTTP/1.1 upgrade (RFC 6455), as
 * Node 20 has no WebSocket client without a flag. Reads unmasked text frames from the server;
 * sends nothing but the close frame. Resolves with the socket, or with the HTTP answer when the
 * server refused the upgrade.
 */
export function openWebSocket(port: number, path: string, headers: Record<string, string> = {}): Promise<TestWebSocket | RefusedUpgrade> {
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      path,
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': randomBytes(16).toString('base64'), ...headers },
    });
    request.on('error', reject);
    request.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    request.on('upgrade', (_res, socket: Socket, head: Buffer) => resolve(readFrames(socket, head)));
    request.end();
  });
}

function readFrames(socket: Socket, head: Buffer): TestWebSocket {
  const messages: string[] = [];
  const waiters = new Set<() => void>();
  let buffered = head;
  let fragments: Buffer[] = [];
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  // A reset ends the socket as a close does; 'close' follows it.
  socket.on('error', () => undefined);
  const onData = (chunk: Buffer): void => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      if (buffered.length < 2) return;
      const first = buffered[0] ?? 0;
      const second = buffered[1] ?? 0;
      let length = second & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffered.length < 4) return;
        length = buffered.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffered.length < 10) return;
        length = Number(buffered.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffered.length < offset + length) return;
      const payload = buffered.subarray(offset, offset + length);
      buffered = buffered.subarray(offset + length);
      const opcode = first & 0x0f;
      if (opcode === 0x1 || opcode === 0x0) {
        fragments.push(payload);
        if ((first & 0x80) !== 0) {
          messages.push(Buffer.concat(fragments).toString('utf8'));
          fragments = [];
          for (const wake of waiters) wake();
        }
      }
    }
  };
  socket.on('data', onData);
  if (head.length > 0) onData(Buffer.alloc(0));
  return {
    messages,
    closed,
    waitFor: (accept, ms = 20_000) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = messages.find(accept);
          if (found === undefined) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`No such WebSocket message within ${ms} ms; received: ${JSON.stringify(messages)}`));
        }, ms);
        if (!check()) waiters.add(wake);
      }),
    send: (text) => {
      const payload = Buffer.from(text, 'utf8');
      if (payload.length > 125) throw new Error('The test client sends short messages only.');
      const mask = Buffer.from([1, 2, 3, 4]);
      const masked = payload.map((byte, index) => byte ^ (mask[index % 4] ?? 0));
      socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
    },
    close: () => {
      // A masked close frame (clients must mask), then the end of the connection.
      socket.end(Buffer.from([0x88, 0x80, 0, 0, 0, 0]));
    },
  };
}

/** Whether `result` is an open socket rather than a refused upgrade. */
export function isOpen(result: TestWebSocket | RefusedUpgrade): result is TestWebSocket {
  return 'messages' in result;
}
