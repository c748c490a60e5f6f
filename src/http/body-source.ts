import { Readable } from 'node:stream';
import { isWebStream, type StreamBody } from './response-body';

/** A streamed body read one chunk at a time, whatever kind of stream it is. */
export interface BodySource {
  /** The next chunk as bytes (text encoded as UTF-8), or `null` at the end; rejects when the source fails. */
  read(): Promise<Uint8Array | null>;
  /**
   * Stops the source and lets go of what it holds: the stream destroyed, the web stream
   * cancelled, the iterator's `return()` called. Once is enough; a read pending then settles
   * however the source settles it, and is not looked at.
   */
  cancel(): void;
}

function bytesOf(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  throw new TypeError(`A streamed response body yielded ${chunk === null ? 'null' : typeof chunk}: only Uint8Array (Buffer) and string chunks can be written.`);
}

/** A Readable through its async iterator (which pulls, so the stream pauses between reads); destroyed directly on cancel. */
function readableSource(stream: Readable): BodySource {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<unknown>;
  return {
    read: async () => {
      const step = await iterator.next();
      return step.done === true ? null : bytesOf(step.value);
    },
    // Not iterator.return(): it would wait behind a pending read; destroy() ends that read too.
    cancel: () => void stream.destroy(),
  };
}

/** A web stream through a reader of its own; cancel() also settles a read that is pending. */
function webSource(stream: ReadableStream<Uint8Array | string>): BodySource {
  const reader = stream.getReader();
  return {
    read: async () => {
      const step = await reader.read();
      return step.done ? null : bytesOf(step.value);
    },
    cancel: () => void reader.cancel().catch(() => undefined),
  };
}

/**
 * An async iterable through its iterator. An async generator runs its `finally` when `return()`
 * is called; while one of its reads is pending, only once that read has settled (the language
 * queues the return behind it).
 */
function iterableSource(iterable: AsyncIterable<Uint8Array | string>): BodySource {
  const iterator = iterable[Symbol.asyncIterator]();
  let cancelled = false;
  return {
    read: async () => {
      const step = await iterator.next();
      return step.done === true ? null : bytesOf(step.value);
    },
    cancel: () => {
      if (cancelled) return;
      cancelled = true;
      // A rejection here is the source's own cleanup failing after the response is over: nobody is left to tell.
      iterator.return?.()?.catch(() => undefined);
    },
  };
}

/** Reads `body` chunk by chunk; the caller reads until `null` or cancels. */
export function openBodySource(body: StreamBody): BodySource {
  if (body instanceof Readable) return readableSource(body);
  if (isWebStream(body)) return webSource(body);
  return iterableSource(body);
}
