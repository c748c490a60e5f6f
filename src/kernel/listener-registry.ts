import { type Listener } from './listener';
import { type KernelPhase } from './kernel-events';
import { type Exchange } from './exchange';

export interface RegisteredListener {
  readonly name: string;
  readonly priority: number;
  readonly handle: (exchange: Exchange) => void;
}

/** Listeners by phase, sorted by priority (highest first; ties keep registration order). */
export class ListenerRegistry {
  readonly #byPhase = new Map<KernelPhase, RegisteredListener[]>();

  constructor(listeners: readonly Listener[]) {
    for (const listener of listeners) {
      for (const [phase, subscription] of Object.entries(listener.subscriptions) as [KernelPhase, Listener['subscriptions'][KernelPhase]][]) {
        if (subscription === undefined) continue;
        const list = this.#byPhase.get(phase) ?? [];
        list.push({ name: listener.name, priority: subscription.priority, handle: subscription.handle });
        this.#byPhase.set(phase, list);
      }
    }
    for (const list of this.#byPhase.values()) list.sort((a, b) => b.priority - a.priority);
  }

  /** The listeners of `phase` in the order they run. */
  for(phase: KernelPhase): readonly RegisteredListener[] {
    return this.#byPhase.get(phase) ?? [];
  }
}
