import { type TracingChannel } from 'node:diagnostics_channel';
import { type CapturedCall } from './app-io-entries';
import { closeCall, type OpenCall } from './open-call';

/** What every tracing channel's context carries once the traced call settled. */
export interface TracingContext {
  error?: unknown;
}

/**
 * Subscribes to a tracing channel (`tracePromise` / `traceCallback`): `start` opens the call in
 * the caller's context, `asyncEnd` (after `error` on a failure) closes it; the context object
 * is the same for every event of one call, so it keys the call. Answers how to unsubscribe.
 */
export function subscribeTracing<TContext extends TracingContext, TEntry extends CapturedCall>(
  channel: TracingChannel<unknown, TContext>,
  calls: WeakMap<object, OpenCall<TEntry>>,
  open: (context: TContext) => OpenCall<TEntry> | null,
  settle?: (call: OpenCall<TEntry>, context: TContext) => void,
): () => void {
  const end = (context: TContext): void => {
    const call = calls.get(context);
    if (call === undefined) return;
    calls.delete(context);
    settle?.(call, context);
    closeCall(call, 'error' in context && context.error !== undefined ? context.error : undefined);
  };
  const handlers = {
    start: (context: TContext): void => {
      const call = open(context);
      if (call !== null) calls.set(context, call);
    },
    end: (): void => {},
    asyncStart: (): void => {},
    asyncEnd: end,
    error: (): void => {},
  };
  channel.subscribe(handlers);
  return () => {
    channel.unsubscribe(handlers);
  };
}
