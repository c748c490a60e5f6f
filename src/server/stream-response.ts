import { performance } from 'node:perf_hooks';
import { type HttpResponse } from 'uWebSockets.js';
import { openBodySource, type BodySource } from '../http/body-source';
import { type LoupeResponse } from '../http/response';
import { discardBody, type StreamBody, type StreamOutcome } from '../http/response-body';
import { statusLine } from '../http/status-text';
import { LoupeError } from '../errors/loupe-error';

/** A streamed body being written; the adapter tells it when the client goes away. */
export interface StreamingResponse {
  /** The client went away (uWS's onAborted): the source is stopped, nothing more is written. */
  abort(): void;
}

/** How the body goes out: its length when the application set one, and whether the connection closes after it. */
export interface StreamFraming {
  /** The `Content-Length` the application set (the body is then sent with it), or `null`: chunked. */
  readonly length: number | null;
  /** Close the connection once the body is sent (the request asked to). */
  readonly closing: boolean;
}

/** The application's `Content-Length`, when it is a plain count of bytes; anything else is ignored (the body goes chunked). */
export function declaredLength(response: LoupeResponse): number | null {
  const value = response.headers.get('Content-Length')?.trim();
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/** Status and headers; uWS writes the framing headers itself (`Content-Length` or `Transfer-Encoding: chunked`). */
function writeHead(res: HttpResponse, response: LoupeResponse): void {
  res.writeStatus(statusLine(response.status));
  response.headers.forEachLine((name, value, lowerCaseName) => {
    if (lowerCaseName !== 'content-length' && lowerCaseName !== 'transfer-encoding') res.writeHeader(name, value);
  });
}

/**
 * Writes one streamed body through uWS with backpressure, as uWS's VideoStreamer example does:
 * a chunk is read from the source only once uWS took the last one. Chunked, each chunk goes out
 * with `write`, which buffers what the socket did not take and answers false: the next read waits
 * for `onWritable`. With a `Content-Length`, `tryEnd` takes what fits and the rest is offered
 * again from `onWritable`'s offset. Every write is corked; nothing is written after the client
 * went away (uWS throws on an aborted response) or after the body failed (the connection is
 * then closed: the head is out, no other status can be sent).
 */
class BodyPump implements StreamingResponse {
  readonly #res: HttpResponse;
  readonly #response: LoupeResponse;
  readonly #source: BodySource;
  readonly #framing: StreamFraming;
  readonly #ended: (outcome: StreamOutcome) => void;
  #bytes = 0;
  #firstByteAt: number | null = null;
  #over = false;
  /** Resolves the wait of the read loop once uWS can take more. */
  #resume: (() => void) | null = null;
  /** With a `Content-Length`: the chunk `tryEnd` did not take whole, and the write offset it started at. */
  #unsent: Uint8Array | null = null;
  #unsentAt = 0;

  constructor(res: HttpResponse, response: LoupeResponse, body: StreamBody, framing: StreamFraming, ended: (outcome: StreamOutcome) => void) {
    this.#res = res;
    this.#response = response;
    this.#framing = framing;
    this.#ended = ended;
    this.#source = openBodySource(body);
  }

  start(): void {
    this.#res.onWritable((offset) => this.#onWritable(offset));
    void this.#pump();
  }

  abort(): void {
    if (this.#over) return;
    this.#source.cancel();
    this.#end({ aborted: true, failed: false, error: null });
  }

  async #pump(): Promise<void> {
    try {
      for (;;) {
        const chunk = await this.#source.read();
        if (this.#over) return;
        if (chunk === null) return this.#finish();
        if (chunk.byteLength === 0) continue;
        if (!this.#write(chunk)) await new Promise<void>((resolve) => (this.#resume = resolve));
        if (this.#over) return;
      }
    } catch (error) {
      if (!this.#over) this.#fail(error);
    }
  }

  /** Writes a chunk; false when uWS holds back (the next read then waits for onWritable). */
  #write(chunk: Uint8Array): boolean {
    const { length } = this.#framing;
    if (length !== null && this.#bytes + chunk.byteLength > length) {
      throw new LoupeError('LOUPE_ERR_SERVER_STREAM_LENGTH', `The streamed body is longer than the Content-Length its response set (${length} bytes).`);
    }
    let ok = true;
    let done = false;
    this.#res.cork(() => {
      this.#writeHeadOnce();
      if (length === null) {
        ok = this.#res.write(chunk);
        this.#bytes += chunk.byteLength;
        return;
      }
      const offset = this.#res.getWriteOffset();
      [ok, done] = this.#res.tryEnd(chunk, length);
      if (ok) this.#bytes += chunk.byteLength;
      else [this.#unsent, this.#unsentAt] = [chunk, offset];
    });
    // Told outside the cork: kernel.terminate's listeners run from here, and may write to other sockets.
    if (done) this.#completed();
    return ok;
  }

  #writeHeadOnce(): void {
    if (this.#firstByteAt !== null) return;
    writeHead(this.#res, this.#response);
    this.#firstByteAt = performance.now();
  }

  /** uWS can take more: the rest of a chunk tryEnd held back first, then the next read. Answers whether what it wrote was taken. */
  #onWritable(offset: number): boolean {
    if (this.#over) return true;
    const unsent = this.#unsent;
    if (unsent !== null) {
      const { length } = this.#framing;
      let [sent, done] = [false, false];
      this.#res.cork(() => {
        [sent, done] = this.#res.tryEnd(unsent.subarray(offset - this.#unsentAt), length ?? 0);
      });
      if (sent) [this.#unsent, this.#bytes] = [null, this.#bytes + unsent.byteLength];
      if (done) this.#completed();
      if (!sent) return false;
    }
    const resume = this.#resume;
    this.#resume = null;
    resume?.();
    return true;
  }

  /** The source is over: a chunked body gets its last chunk; a body shorter than its Content-Length cannot be completed. */
  #finish(): void {
    const { length, closing } = this.#framing;
    if (length !== null && this.#bytes < length) {
      this.#fail(new LoupeError('LOUPE_ERR_SERVER_STREAM_LENGTH', `The streamed body ended after ${this.#bytes} bytes, short of the Content-Length its response set (${length} bytes).`));
      return;
    }
    this.#res.cork(() => {
      this.#writeHeadOnce();
      this.#res.end('', closing);
    });
    this.#end({ aborted: false, failed: false, error: null });
  }

  /** tryEnd sent the last byte: the response is over, and the source is let go. */
  #completed(): void {
    this.#source.cancel();
    this.#end({ aborted: false, failed: false, error: null });
  }

  #fail(error: unknown): void {
    this.#source.cancel();
    this.#end({ aborted: false, failed: true, error });
    // The head may be out: the only way left to tell the client is to close. uWS calls
    // onAborted from close(), which finds the body already over.
    this.#res.close();
  }

  #end(how: Pick<StreamOutcome, 'aborted' | 'failed' | 'error'>): void {
    this.#over = true;
    const resume = this.#resume;
    this.#resume = null;
    resume?.();
    this.#ended({ bytes: this.#bytes, firstByteAt: this.#firstByteAt, endedAt: performance.now(), ...how });
  }
}

/**
 * Starts writing `body` to `res` (status and headers go with its first chunk); `ended` is told
 * once when it is over. A HEAD request gets the head alone, with the application's
 * `Content-Length` if it set one, and the source is let go at once.
 */
export function streamResponse(res: HttpResponse, response: LoupeResponse, body: StreamBody, framing: StreamFraming & { readonly head: boolean }, ended: (outcome: StreamOutcome) => void): StreamingResponse {
  if (framing.head) {
    const { length, closing } = framing;
    // Without a length, endWithoutBody must get no argument at all: uWS reads any first one as a number.
    res.cork(() => {
      writeHead(res, response);
      if (length === null) res.endWithoutBody();
      else res.endWithoutBody(length, closing);
    });
    discardBody(body);
    const now = performance.now();
    ended({ bytes: 0, firstByteAt: now, endedAt: now, aborted: false, failed: false, error: null });
    return { abort: () => undefined };
  }
  const pump = new BodyPump(res, response, body, framing, ended);
  pump.start();
  return pump;
}
