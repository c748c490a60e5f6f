import { type Exchange } from './exchange';
import { type KernelPhase } from './kernel-events';

/** One subscription of a listener: the phase, its priority (higher runs first) and the handler. */
export interface PhaseSubscription {
  readonly priority: number;
  /** Synchronous by design: the kernel runs a phase's listeners in one pass. A throw becomes the request's error. */
  readonly handle: (exchange: Exchange) => void;
}

/**
 * A listener names itself and declares the phases it runs in, as Symfony's getSubscribedEvents;
 * a phase may take several subscriptions at different priorities.
 */
export interface Listener {
  readonly name: string;
  readonly subscriptions: Partial<Readonly<Record<KernelPhase, PhaseSubscription | readonly PhaseSubscription[]>>>;
}
