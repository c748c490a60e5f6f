import { Readable } from 'node:stream';

/**
 * A body written as it is produced rather than held whole: a Node `Readable` (a file, a database
 * cursor), an async iterable of chunks (an `async function*`), or a web `ReadableStream` (`fetch`'s
 * `response.body`). Chunks are bytes or text (UTF-8). The server pulls the next chunk only once the
 * client has taken the last ones, and stops the source when the client goes away.
 */
export type StreamBody = Readable | AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array | string>;

/** What a `Response` may carry: text, bytes, or a stream written chunk by chunk (see StreamBody). */
export type ResponseBody = string | Buffer | StreamBody;

/** How a streamed body went out, as the server that wrote it reports once it is over. */
export interface StreamOutcome {
  /** Bytes of the body handed to the connection. */
  readonly bytes: number;
  /** `performance.now()` when the head and the first bytes went out; `null` when nothing did. */
  readonly firstByteAt: number | null;
  /** `performance.now()` when the body was over: sent whole, failed or abandoned. */
  readonly endedAt: number;
  /** The client went away before the body's end. */
  readonly aborted: boolean;
  /** The body's source failed; the connection was closed. */
  readonly failed: boolean;
  /** What the source failed with; `null` unless `failed`. */
  readonly error: unknown;
}

/** True for a body that is written as a stream, false for text and bytes written whole. */
export function isStreamBody(body: ResponseBody): body is StreamBody {
  return typeof body !== 'string' && !Buffer.isBuffer(body);
}

/** A web ReadableStream, from this realm or another (`getReader` is what is used of it). */
export function isWebStream(body: StreamBody): body is ReadableStream<Uint8Array | string> {
  return !(body instanceof Readable) && typeof (body as { getReader?: unknown }).getReader === 'function';
}

/**
 * Lets go of a streamed body that will never be written (a HEAD request, a 204, a response an
 * error replaced): the stream is destroyed, the web stream cancelled, the iterator's `return()`
 * called, so that a file or a cursor behind it is closed.
 */
export function discardBody(body: ResponseBody): void {
  if (!isStreamBody(body)) return;
  if (body instanceof Readable) {
    body.destroy();
  } else if (isWebStream(body)) {
    // A locked stream (someone holds a reader) cannot be cancelled from here: its reader's holder owns it.
    if (!body.locked) body.cancel().catch(() => undefined);
  } else {
    const iterator = body[Symbol.asyncIterator]();
    iterator.return?.()?.catch(() => undefined);
  }
}
