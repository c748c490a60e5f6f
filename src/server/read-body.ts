import { type HttpResponse } from 'uWebSockets.js';

export type BodyResult = { readonly body: Buffer | null; readonly tooLarge: boolean };

/** True when the request announces a body (uWS has no hasBody(): uWS.js#1095). */
export function announcesBody(headers: Readonly<Record<string, string>>): boolean {
  const length = headers['content-length'];
  return (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the body with a size limit. Chunks are copied: uWS neuters the ArrayBuffer after the
 * callback. Past the limit the rest is ignored and `tooLarge` is reported once.
 */
export function readBody(res: HttpResponse, headers: Readonly<Record<string, string>>, limit: number, done: (result: BodyResult) => void): void {
  const declared = Number(headers['content-length'] ?? NaN);
  if (Number.isFinite(declared) && declared > limit) {
    done({ body: null, tooLarge: true });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  res.onData((chunk, isLast) => {
    if (finished) return;
    size += chunk.byteLength;
    if (size > limit) {
      finished = true;
      done({ body: null, tooLarge: true });
      return;
    }
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) {
      finished = true;
      done({ body: Buffer.concat(chunks, size), tooLarge: false });
    }
  });
}
