import { attributeKey } from './attributes';
import { describeValue } from './describe-value';
import { createPhaseEvent } from './event/create-phase-event';
import { type KernelEvent } from './event/kernel-event';
import { type Exchange } from './exchange';
import { type KernelPhase } from './kernel-events';
import { type ListenerRegistry, type RegisteredListener } from './listener-registry';

/** Where a phase's dispatch stands: which listeners, which runs next, and what a failure does. */
interface PhaseDispatch {
  /** Tells this dispatch's settles from those of one the request left. */
  readonly id: number;
  readonly phase: KernelPhase;
  readonly event: KernelEvent;
  readonly listeners: readonly RegisteredListener[];
  /** The next listener to run. */
  index: number;
  /** `fail`: a throw becomes the request's error and ends the phase; `log`: it is logged and the next listener runs. */
  readonly onError: 'fail' | 'log';
  /** The listener whose promise the phase waits for, with when it started. */
  pending: { readonly listener: RegisteredListener; readonly start: number } | null;
}

/** The phase being dispatched for an exchange. */
const DISPATCH = attributeKey<PhaseDispatch>('kernel.dispatch');

let nextDispatchId = 1;

/** True while a listener's promise keeps the exchange's current phase waiting. */
export function isListenerPending(exchange: Exchange): boolean {
  return (exchange.attributes.get(DISPATCH)?.pending ?? null) !== null;
}

/**
 * How a listener's promise ended, and which dispatch it belongs to: the machine hands it back
 * with `listener.settled`, and a settle of a dispatch the request left (an abort) is ignored.
 */
export type ListenerOutcome = { readonly dispatch: number; readonly ok: true } | { readonly dispatch: number; readonly ok: false; readonly error: unknown };

/** Called when a pending listener's promise settles, to wake the machine. */
export type SettleNotifier = (outcome: ListenerOutcome) => void;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A listener failed: in a failing phase the error becomes the request's and the phase ends; else it is logged. */
function failed(exchange: Exchange, dispatch: PhaseDispatch, name: string, error: unknown): void {
  if (dispatch.onError === 'fail') {
    exchange.fail(error);
    dispatch.index = dispatch.listeners.length;
    return;
  }
  exchange.trace.log('error', `Listener "${name}" failed during ${dispatch.phase}.`, { error: describeValue(error) });
}

/**
 * Runs listeners from the dispatch's index in priority order, timing each into the trace, until
 * they are done, propagation is stopped, or one returns a promise: then the dispatch keeps that
 * listener as pending and returns; `notify` is told when it settles. Synchronous listeners never
 * create a promise.
 */
function runListeners(exchange: Exchange, dispatch: PhaseDispatch, notify: SettleNotifier): void {
  const { trace } = exchange;
  const { listeners, event, phase } = dispatch;
  while (dispatch.index < listeners.length && !event.isPropagationStopped) {
    const listener = listeners[dispatch.index++];
    if (listener === undefined) break;
    const start = trace.now();
    let result: unknown;
    try {
      result = listener.handle(event);
    } catch (error) {
      trace.recordListener(phase, listener.name, listener.priority, start);
      failed(exchange, dispatch, listener.name, error);
      continue;
    }
    if (isThenable(result)) {
      dispatch.pending = { listener, start };
      const { id } = dispatch;
      result.then(
        () => notify({ dispatch: id, ok: true }),
        (error: unknown) => notify({ dispatch: id, ok: false, error }),
      );
      return;
    }
    trace.recordListener(phase, listener.name, listener.priority, start);
  }
}

/**
 * Starts `phase`: enters it in the trace and runs its listeners with the phase's event. In a
 * failing phase (`onError: 'fail'`) nothing runs once the request has an error.
 */
export function dispatchPhase(
  registry: ListenerRegistry,
  exchange: Exchange,
  phase: KernelPhase,
  onError: 'fail' | 'log',
  notify: SettleNotifier,
): void {
  exchange.trace.enter(phase);
  const dispatch: PhaseDispatch = { id: nextDispatchId++, phase, event: createPhaseEvent(phase, exchange), listeners: registry.for(phase), index: 0, onError, pending: null };
  exchange.attributes.set(DISPATCH, dispatch);
  if (onError === 'fail' && exchange.error !== null) return;
  runListeners(exchange, dispatch, notify);
}

/** Takes the settled promise of the pending listener into account and runs the phase's remaining listeners. */
export function resumePhase(exchange: Exchange, outcome: ListenerOutcome, notify: SettleNotifier): void {
  const dispatch = exchange.attributes.get(DISPATCH);
  if (dispatch === undefined || dispatch.pending === null || dispatch.id !== outcome.dispatch) return;
  const { listener, start } = dispatch.pending;
  dispatch.pending = null;
  exchange.trace.recordListener(dispatch.phase, listener.name, listener.priority, start);
  if (!outcome.ok) failed(exchange, dispatch, listener.name, outcome.error);
  runListeners(exchange, dispatch, notify);
}
