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
      for (const [phase, subscribed] of Object.entries(listener.subscriptions) as [KernelPhase, Listener['subscriptions'][KernelPhase]][]) {
        if (subscribed === undefined) continue;
        const list = this.#byPhase.get(phase) ?? [];
        for (const { priority, handle } of Array.isArray(subscribed) ? subscribed : [subscribed]) {
          list.push({ name: listener.name, priority, handle });
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
}
