/** A web body read to its end, or what is left of it to send as it comes. */
export type ReadBody = { readonly whole: Buffer } | { readonly rest: ReadableStream<Uint8Array> };

/** Answered by `nextTurn` when a read must wait beyond the current turn of the event loop. */
const LATER = Symbol('later');

/** Resolves with LATER once the microtasks of this turn have run: a body already in memory is read before. */
function nextTurn(): { readonly promise: Promise<typeof LATER>; cancel(): void } {
  let immediate: NodeJS.Immediate | undefined;
  const promise = new Promise<typeof LATER>((resolve) => (immediate = setImmediate(resolve, LATER)));
  return { promise, cancel: () => clearImmediate(immediate) };
}

/** The chunks read so far, then the rest of `reader` (its read in flight first), as one stream. */
function resumed(held: readonly Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>, pending: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | null): ReadableStream<Uint8Array> {
  let inFlight = pending;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of held) controller.enqueue(chunk);
    },
    async pull(controller) {
      const read = await (inFlight ?? reader.read());
      inFlight = null;
      if (read.done) controller.close();
      else controller.enqueue(read.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * Reads `body` whole when it is already whole: a page a handler made as a string or bytes
 * (`c.html()`, `c.body()`) is in memory, and each of its chunks is there before the event loop
 * turns. A body that makes the reader wait (a stream written as the page is rendered: Hono's
 * `stream()`, JSX streaming), or longer than `limit` bytes, is never held: what was read is
 * given back in front of the rest, to be sent as it comes.
 */
export async function readWholeBody(body: ReadableStream<Uint8Array>, limit: number): Promise<ReadBody> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    if (size > limit) return { rest: resumed(chunks, reader, null) };
    const pending = reader.read();
    const turn = nextTurn();
    const read = await Promise.race([pending, turn.promise]);
    turn.cancel();
    if (read === LATER) return { rest: resumed(chunks, reader, pending) };
    if (read.done) return { whole: Buffer.concat(chunks) };
    chunks.push(read.value);
    size += read.value.byteLength;
  }
}
