import http from 'node:http';
import net from 'node:net';

export interface HttpResult {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface HttpRequestOptions {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** The client's source address, another loopback address (127.0.0.2…) to be another client. */
  readonly localAddress?: string;
}

/** One HTTP/1.1 request over a fresh connection; any header may be set (Host, Referer…). */
export function httpRequest(port: number, options: HttpRequestOptions): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers, agent: false, ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Sends raw bytes (a request that says `Connection: close`) and returns everything the server
 * answered until it closed the connection; `waitMs` only bounds a server that never does.
 */
export function rawRequest(port: number, text: string, waitMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.write(text);
  });
}

export interface RawExchange {
  /** Everything the server sent. */
  readonly text: string;
  /** Who ended the connection: the server (a close or a reset), or the client after `waitMs` without one. */
  readonly endedBy: 'server' | 'client';
  readonly reset: boolean;
  readonly ms: number;
}

/**
 * Sends raw bytes and records what came back and how the connection ended, for requests a server
 * may never answer. Given parts, sends each in its own TCP segment, `gapMs` apart (a request head
 * split across two reads, as a real network splits one longer than a segment).
 */
export function rawExchange(port: number, text: string | readonly string[], waitMs: number, gapMs = 0): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const chunks: Buffer[] = [];
    let endedBy: 'server' | 'client' = 'server';
    let reset = false;
    const timer = setTimeout(() => {
      endedBy = 'client';
      socket.destroy();
    }, waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reset = error.code === 'ECONNRESET';
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString('utf8'), endedBy, reset, ms: Date.now() - started });
    });
    const [first = '', ...rest] = typeof text === 'string' ? [text] : text;
    socket.write(first);
    rest.forEach((part, index) =>
      setTimeout(() => {
        if (!socket.destroyed) socket.write(part);
      }, (index + 1) * gapMs),
    );
  });
}
