import { type KernelEvent } from './event/kernel-event';
import { type KernelPhase } from './kernel-events';
import { type Listener, type PhaseHandler, type Subscription } from './listener';

export interface RegisteredListener {
  readonly name: string;
  readonly priority: number;
  readonly handle: PhaseHandler<KernelEvent>;
}

type AnySubscription = Subscription<never>;

function isSingle(subscribed: AnySubscription | readonly AnySubscription[]): subscribed is AnySubscription {
  return typeof subscribed[0] === 'number';
}

/** Listeners by phase, sorted by priority (highest first; ties keep registration order). */
export class ListenerRegistry {
  readonly #byPhase = new Map<KernelPhase, RegisteredListener[]>();

  constructor(listeners: readonly Listener[]) {
    for (const listener of listeners) {
      for (const [phase, subscribed] of Object.entries(listener.subscriptions) as [KernelPhase, AnySubscription | readonly AnySubscription[] | undefined][]) {
        if (subscribed === undefined) continue;
        const list = this.#byPhase.get(phase) ?? [];
        for (const [priority, handle] of isSingle(subscribed) ? [subscribed] : subscribed) {
          // Each handler is typed for its phase's event; the dispatcher hands it exactly that event.
          list.push({ name: listener.name, priority, handle: handle as PhaseHandler<KernelEvent> });
        }
        this.#byPhase.set(phase, list);
      }
    }
    for (const list of this.#byPhase.values()) list.sort((a, b) => b.priority - a.priority);
  }

  /** The listeners of `phase` in the order they run. */
  for(phase: KernelPhase): readonly RegisteredListener[] {
    return this.#byPhase.get(phase) ?? [];
  }

  /** Every phase with its listeners in order, as `debug:event-dispatcher` prints them. */
  table(): { readonly phase: KernelPhase; readonly listeners: readonly { readonly name: string; readonly priority: number }[] }[] {
    return [...this.#byPhase].map(([phase, list]) => ({ phase, listeners: list.map(({ name, priority }) => ({ name, priority })) }));
  }
}
