import { type ListenerRecord, type PhaseRecord } from '../../../kernel/trace';
import { collectorData, type Profile } from '../../profile';
import { machineOf } from './machine-view';
import { ownSpans, TIMELINE_COLLECTOR, type TimelineCollectorData } from './timeline-collector';

/** The entry profiles stored before the timeline held the phases and listeners (still read). */
export const EVENTS_COLLECTOR = 'events';

/** What the Events panel, `profiler:show` and comparisons show. */
export interface EventsView {
  /** The kernel phases the request went through, in order: the `kernel.*` states of the machine. */
  readonly phases: readonly PhaseRecord[];
  /** Each listener that ran, in order, with its phase, priority and timing. */
  readonly listeners: readonly ListenerRecord[];
}

const KERNEL_PHASE = /^kernel\./;

/**
 * The phases and the listeners run in each, as Symfony's event collector, read from the
 * request's own timeline. Listeners of kernel.terminate still running when the profile was
 * collected (the profiler's, those after it) are not listed. A profile stored with an `events`
 * entry is read from it; `undefined` when the profile has neither.
 */
export function eventsOf(profile: Profile): EventsView | undefined {
  const stored = collectorData<EventsView>(profile, EVENTS_COLLECTOR);
  if (stored !== undefined) return stored;
  const timeline = collectorData<TimelineCollectorData>(profile, TIMELINE_COLLECTOR);
  if (timeline === undefined) return undefined;
  const spans = ownSpans(timeline);
  const listeners = spans
    .filter((span) => span.category === 'listener' && span.running !== true)
    .map(({ parent, name, priority, start, duration }) => ({ phase: spans[parent]?.name ?? '', name, priority: priority ?? 0, start, duration }));
  const phases = (machineOf(profile)?.states ?? []).filter((state) => KERNEL_PHASE.test(state.name));
  return { phases, listeners };
}
