import { type DbQueryEntry } from './app-io-entries';
import { closeCall, type OpenCall } from './open-call';
import { wrapMethod, type Method } from './wrap-method';

/** What the capture of postgres.js knows of a query: whether it captures it, and its call once it was sent. */
export interface CursorCalls {
  isCaptured(query: object): boolean;
  callOf(query: object): OpenCall<DbQueryEntry> | undefined;
}

/** A cursor's function, counting the rows of each batch it is given into the query's call. */
function countRows(query: object, fn: Method, calls: CursorCalls): Method {
  return function (this: unknown, ...args: unknown[]) {
    const [rows] = args;
    const call = calls.callOf(query);
    if (call !== undefined && Array.isArray(rows)) call.entry.rows = (call.entry.rows ?? 0) + rows.length;
    return fn.apply(this, args);
  };
}

type Step = IteratorResult<unknown>;
type AsyncIterable = Record<typeof Symbol.asyncIterator, () => { next(): Step | Promise<Step>; return(): Step }>;

/**
 * A cursor read with `for await` ends through its iterator, its query's own promise never
 * settles: the call ends with the last step (or the loop's `break`), its rows the rows read.
 */
function endWithIterator(query: object, iterable: AsyncIterable, calls: CursorCalls): void {
  const iterate = iterable[Symbol.asyncIterator];
  iterable[Symbol.asyncIterator] = () => {
    const iterator = iterate();
    let rows = 0;
    const end = (error?: unknown): void => {
      const call = calls.callOf(query);
      if (call === undefined) return;
      call.entry.rows = rows;
      closeCall(call, error);
    };
    return {
      next: () =>
        Promise.resolve(iterator.next()).then(
          (step) => {
            if (step.done === true) end();
            else if (Array.isArray(step.value)) rows += step.value.length;
            return step;
          },
          (error: unknown) => {
            end(error);
            throw error;
          },
        ),
      return: () => {
        end();
        return iterator.return();
      },
    };
  };
}

/**
 * Ends the calls of postgres.js' cursors (`query.cursor(rows, fn)`, `for await (… of query.cursor(rows))`)
 * with the rows they read: a batch's result counts its own rows only.
 */
export function captureCursors(prototype: Record<PropertyKey, unknown>, calls: CursorCalls): () => void {
  return wrapMethod(prototype, 'cursor', (original) =>
    function (this: unknown, ...args: unknown[]) {
      const query = this as object;
      if (!calls.isCaptured(query)) return original.apply(this, args);
      // `cursor(rows, fn)` answers the query itself, which settles when the cursor is read through.
      const fn = args[args.length - 1];
      if (typeof fn === 'function') args[args.length - 1] = countRows(query, fn as Method, calls);
      const cursor = original.apply(this, args);
      if (cursor !== query && typeof cursor === 'object' && cursor !== null) endWithIterator(query, cursor as AsyncIterable, calls);
      return cursor;
    },
  );
}
