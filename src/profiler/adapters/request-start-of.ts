import { type IncomingMessage } from 'node:http';
import { type RequestStart } from '../core/request-start';

/** What the profiler is told of a request of a node:http server. */
export function requestStartOf(req: IncomingMessage): RequestStart {
  const socket = req.socket as IncomingMessage['socket'] & { encrypted?: boolean };
  return {
    method: req.method ?? 'GET',
    url: req.url ?? '/',
    headers: req.headers,
    remoteAddress: socket.remoteAddress ?? '',
    scheme: socket.encrypted === true ? 'https' : 'http',
    serverPort: socket.localPort ?? 0,
  };
}
