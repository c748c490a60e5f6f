import { type Context } from 'hono';

/** What Hono does with one request's chain of middleware and handlers, as the adapter hears it. */
export interface ChainListener {
  /** Hono calls the layer at `index` of the matched routes (`c.req.routeIndex` is set to it). */
  called(index: number): void;
  /** Hono caught `error`, thrown or rejected by a layer, and calls the application's `onError` (`c.error` is set). */
  caught(error: unknown): void;
  /** A response was set on the context (`c.finalized`): a handler's, onError's, notFound's, or one a middleware answered. */
  responded(): void;
}

/**
 * Makes the own field `key` of `target` tell `onSet` every value it is given, still reading and
 * writing as the field did. Answers false, observing nothing, where it is no plain own field.
 */
function observeField(target: object, key: string, onSet: (value: unknown) => void): boolean {
  const field = Object.getOwnPropertyDescriptor(target, key);
  if (field === undefined || field.configurable !== true || !('value' in field)) return false;
  let value: unknown = field.value;
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: field.enumerable ?? true,
    get: () => value,
    set: (next: unknown) => {
      value = next;
      onSet(next);
    },
  });
  return true;
}

/**
 * Follows the rest of the chain of `c` after the middleware that calls this: Hono's compose sets
 * `c.req.routeIndex` just before it calls each layer, `c.error` before it calls `onError`, and a
 * response set on the context sets `c.finalized`. These are public fields of this request's own
 * objects: nothing of Hono's is patched, and another request is not touched. Answers the function
 * that stops listening (the fields keep working as fields).
 */
export function followChain(c: Context, listener: ChainListener): () => void {
  let listening = true;
  observeField(c.req, 'routeIndex', (index) => {
    if (listening && typeof index === 'number') listener.called(index);
  });
  observeField(c, 'error', (error) => {
    if (listening && error !== undefined) listener.caught(error);
  });
  observeField(c, 'finalized', (finalized) => {
    if (listening && finalized === true) listener.responded();
  });
  return () => {
    listening = false;
  };
}
