import { describeValue } from './describe-value';
import { type Exchange } from './exchange';
import { FALLIBLE_PHASES, KernelEvents, type KernelPhase } from './kernel-events';
import { type ListenerRegistry } from './listener-registry';

/**
 * Runs the listeners of one phase in priority order, timing each into the trace. In a fallible
 * phase (FALLIBLE_PHASES) a throw becomes the request's error and ends the phase; elsewhere it is
 * logged and the next listener runs.
 */
export function dispatchPhase(listeners: ListenerRegistry, exchange: Exchange, phase: KernelPhase): void {
  const { trace } = exchange;
  trace.enter(phase);
  if (phase === KernelEvents.EXCEPTION) {
    // The error replaces whatever response was being built; a listener here may set a new one.
    exchange.handlingError = exchange.error;
    exchange.error = null;
    exchange.response = null;
  }
  const fallible = FALLIBLE_PHASES.has(phase);
  if (fallible && exchange.error !== null) return;
  for (const listener of listeners.for(phase)) {
    const start = trace.now();
    try {
      listener.handle(exchange);
    } catch (error) {
      trace.recordListener(phase, listener.name, listener.priority, start);
      if (fallible) {
        exchange.fail(error);
        return;
      }
      trace.log('error', `Listener "${listener.name}" failed during ${phase}.`, { error: describeValue(error) });
      continue;
    }
    trace.recordListener(phase, listener.name, listener.priority, start);
    // As Symfony's RequestEvent: a response set at kernel.request stops the phase.
    if (phase === KernelEvents.REQUEST && exchange.response !== null) return;
  }
}
