import { createPhaseEvent } from '../../src/kernel/event/create-phase-event';
import { type Exchange } from '../../src/kernel/exchange';
import { type KernelPhase } from '../../src/kernel/kernel-events';
import { type Listener } from '../../src/kernel/listener';
import { ListenerRegistry } from '../../src/kernel/listener-registry';
import { isThenable } from '../../src/kernel/is-thenable';

/**
 * Runs the handlers `listeners` subscribed to `phase` with that phase's event for `exchange`, in
 * priority order as the kernel does (propagation stops after setResponse), awaiting async ones.
 * Resolves with the event, for its accessors.
 */
export async function runPhase(listeners: Listener | readonly Listener[], phase: KernelPhase, exchange: Exchange): Promise<void> {
  const registry = new ListenerRegistry(Array.isArray(listeners) ? listeners : [listeners as Listener]);
  const event = createPhaseEvent(phase, exchange);
  for (const listener of registry.for(phase)) {
    if (event.isPropagationStopped) break;
    await listener.handle(event);
  }
}

/** As runPhase for listeners that must be synchronous: fails when a handler returns a promise. */
export function runPhaseSync(listeners: Listener | readonly Listener[], phase: KernelPhase, exchange: Exchange): void {
  const registry = new ListenerRegistry(Array.isArray(listeners) ? listeners : [listeners as Listener]);
  const event = createPhaseEvent(phase, exchange);
  for (const listener of registry.for(phase)) {
    if (event.isPropagationStopped) break;
    if (isThenable(listener.handle(event))) throw new Error(`${listener.name} returned a promise at ${phase}: it was expected to stay synchronous.`);
  }
}
