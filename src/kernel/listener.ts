import { type PhaseEventMap } from './event/phase-event-map';
import { type KernelPhase } from './kernel-events';

/**
 * Handles one phase's event. It may return a promise: the phase then waits in the request machine
 * until it settles (a rejection is a throw); any other value is ignored and costs no promise.
 */
export type PhaseHandler<E> = (event: E) => unknown;

/** One subscription: the priority (higher runs first) and the handler. */
export type Subscription<E> = readonly [priority: number, handler: PhaseHandler<E>];

/** The phases a listener runs in, each with one subscription or several at different priorities. */
export type Subscriptions = {
  readonly [P in KernelPhase]?: Subscription<PhaseEventMap[P]> | readonly Subscription<PhaseEventMap[P]>[];
};

/**
 * A listener names itself and declares the phases it runs in, as Symfony's
 * getSubscribedEvents. Made with defineListener().
 */
export interface Listener {
  /** Shown in the profiler's timeline and `loupe debug:listeners`, e.g. `LocaleListener`. */
  readonly name: string;
  /** The phases it runs in, with a priority each. */
  readonly subscriptions: Subscriptions;
}

/**
 * A listener in a few lines:
 * `defineListener('RobotsListener', { 'kernel.response': [-255, (event) => …] })`.
 */
export function defineListener(name: string, subscriptions: Subscriptions): Listener {
  return Object.freeze({ name, subscriptions });
}
