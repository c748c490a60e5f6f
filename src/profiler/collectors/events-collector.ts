import { type ListenerRecord, type PhaseRecord } from '../../kernel/trace';
import { type ProfileCollector } from '../collector';
import { roundedStates, roundMs } from './timings';

export const EVENTS_COLLECTOR = 'events';

export interface EventsCollectorData {
  /** The kernel phases the request went through, in order: the `kernel.*` states of the machine. */
  readonly phases: readonly PhaseRecord[];
  /** Each listener that ran, in order, with its phase, priority and timing. */
  readonly listeners: readonly ListenerRecord[];
}

const KERNEL_PHASE = /^kernel\./;

/**
 * The phases and the listeners run in each, as Symfony's event collector. Listeners of
 * kernel.terminate are still running when it collects, so only those before the profiler's show.
 */
export const eventsCollector: ProfileCollector<EventsCollectorData> = {
  name: EVENTS_COLLECTOR,
  collect: (exchange) => ({
    phases: roundedStates(exchange).filter((state) => KERNEL_PHASE.test(state.name)),
    listeners: exchange.trace.listeners.map((listener) => ({ ...listener, start: roundMs(listener.start), duration: roundMs(listener.duration) })),
  }),
};
