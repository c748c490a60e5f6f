import { isStreamBody } from '../http/response-body';
import { describeValue } from './describe-value';
import { createPhaseEvent } from './event/create-phase-event';
import { type KernelEvent } from './event/kernel-event';
import { type DispatchCursor, type Exchange } from './exchange';
import { type KernelPhase } from './kernel-events';
import { type ListenerRegistry, type RegisteredListener } from './listener-registry';
import { isThenable } from './is-thenable';
import { type PhaseOutcome } from '../../machines/request.machine';

/** Where a phase's dispatch stands: which listeners, which runs next, and what a failure does. */
interface PhaseDispatch extends DispatchCursor {
  /** Tells this dispatch's settles from those of one the request left. */
  readonly id: number;
  readonly phase: KernelPhase;
  readonly event: KernelEvent;
  readonly listeners: readonly RegisteredListener[];
  /** The next listener to run. */
  index: number;
  /** `fail`: a throw becomes the request's error and ends the phase; `log`: it is logged and the next listener runs. */
  readonly onError: 'fail' | 'log';
  /** The listener whose promise the phase waits for, with its span in the trace. */
  pending: { readonly listener: RegisteredListener; readonly span: number } | null;
}

/** The exchange's dispatch, which only this module creates. */
function dispatchOf(exchange: Exchange): PhaseDispatch | null {
  return exchange.dispatch as PhaseDispatch | null;
}

let nextDispatchId = 1;

/**
 * How a listener's promise ended, and which dispatch it belongs to: the machine hands it back
 * with `listener.settled`, and a settle of a dispatch the request left (an abort) is ignored.
 */
export type ListenerOutcome = { readonly dispatch: number; readonly ok: true } | { readonly dispatch: number; readonly ok: false; readonly error: unknown };

/**
 * The request's actor: told with `listener.settled` when a pending listener's promise settles,
 * and with `phase.done` once every listener of the phase ran.
 */
export interface PhaseTarget {
  send(event: ({ readonly type: 'listener.settled' } & ListenerOutcome) | { readonly type: 'phase.done'; readonly outcome: PhaseOutcome; readonly streamed: boolean }): void;
  getSnapshot(): { readonly status: string };
}

/** Only to an actor that still runs: a listener may settle after the client went away. */
function settle(target: PhaseTarget, outcome: ListenerOutcome): void {
  if (target.getSnapshot().status === 'active') target.send({ type: 'listener.settled', ...outcome });
}

/** What the phase's listeners left the request with, the first that holds (see PhaseOutcome). */
function outcomeOf(exchange: Exchange): PhaseOutcome {
  if (exchange.error !== null) return 'error';
  if (exchange.response !== null) return 'response';
  return exchange.controller === null ? 'none' : 'controller';
}

/** The phase is over: the machine chooses its exit from the outcome this sends. */
function done(exchange: Exchange, target: PhaseTarget): void {
  const response = exchange.response;
  target.send({ type: 'phase.done', outcome: outcomeOf(exchange), streamed: response !== null && isStreamBody(response.body) });
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
 * they are done or propagation is stopped, and then tells `target` the phase is done; or until one
 * returns a promise: then the dispatch keeps that listener as pending and returns, and `target` is
 * told when it settles. Synchronous listeners never create a promise.
 */
function runListeners(exchange: Exchange, dispatch: PhaseDispatch, target: PhaseTarget): void {
  const { trace } = exchange;
  const { listeners, event } = dispatch;
  while (dispatch.index < listeners.length && !event.isPropagationStopped) {
    const listener = listeners[dispatch.index++];
    if (listener === undefined) break;
    const span = trace.beginListener(listener.name, listener.priority);
    let result: unknown;
    try {
      result = listener.handle(event);
    } catch (error) {
      trace.end(span);
      failed(exchange, dispatch, listener.name, error);
      continue;
    }
    if (isThenable(result)) {
      dispatch.pending = { listener, span };
      const { id } = dispatch;
      result.then(
        () => settle(target, { dispatch: id, ok: true }),
        (error: unknown) => settle(target, { dispatch: id, ok: false, error }),
      );
      return;
    }
    trace.end(span);
  }
  done(exchange, target);
}

/**
 * Starts `phase`: enters it in the trace and runs its listeners with the phase's event; `target`
 * gets `phase.done` once they ran, at once when none is async. In a failing phase
 * (`onError: 'fail'`) nothing runs once the request has an error.
 */
export function dispatchPhase(
  registry: ListenerRegistry,
  exchange: Exchange,
  phase: KernelPhase,
  onError: 'fail' | 'log',
  target: PhaseTarget,
): void {
  exchange.trace.enter(phase);
  const listeners = registry.for(phase);
  if (listeners.length === 0) {
    // Nothing to run (often kernel.controller and kernel.controller_arguments): no event to make.
    exchange.dispatch = null;
    return done(exchange, target);
  }
  const dispatch: PhaseDispatch = { id: nextDispatchId++, phase, event: createPhaseEvent(phase, exchange), listeners, index: 0, onError, pending: null };
  exchange.dispatch = dispatch;
  if (onError === 'fail' && exchange.error !== null) return done(exchange, target);
  runListeners(exchange, dispatch, target);
}

/**
 * Takes the settled promise of the pending listener into account and runs the phase's remaining
 * listeners; a settle of another dispatch than the exchange's current one changes nothing.
 */
export function resumePhase(exchange: Exchange, outcome: ListenerOutcome, target: PhaseTarget): void {
  const dispatch = dispatchOf(exchange);
  if (dispatch === null || dispatch.pending === null || dispatch.id !== outcome.dispatch) return;
  const { listener, span } = dispatch.pending;
  dispatch.pending = null;
  exchange.trace.end(span);
  if (!outcome.ok) failed(exchange, dispatch, listener.name, outcome.error);
  runListeners(exchange, dispatch, target);
}
