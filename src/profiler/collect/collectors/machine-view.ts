import { type PhaseRecord } from '../../../kernel/trace';
import { collectorData, type Profile } from '../../profile';
import { ownSpans, TIMELINE_COLLECTOR, type TimelineCollectorData } from './timeline-collector';

/** The entry profiles stored before the timeline held the machine's states (still read). */
export const MACHINE_COLLECTOR = 'machine';

/** What the State machine panel, the toolbar and comparisons show. */
export interface MachineView {
  /** Every state the request's actor entered, kernel phases and its own (received, controller, error_sub_request…). */
  readonly states: readonly PhaseRecord[];
}

/**
 * The request machine's states with their timing (Symfony's time collector, by state): the
 * top-level spans of the request's own timeline, the one still running when the profile was
 * collected with a duration of 0. A profile stored with a `machine` entry is read from it;
 * `undefined` when the profile has neither.
 */
export function machineOf(profile: Profile): MachineView | undefined {
  const stored = collectorData<MachineView>(profile, MACHINE_COLLECTOR);
  if (stored !== undefined) return stored;
  const timeline = collectorData<TimelineCollectorData>(profile, TIMELINE_COLLECTOR);
  if (timeline === undefined) return undefined;
  const states = ownSpans(timeline)
    .filter((span) => span.depth === 0)
    .map((span) => ({ name: span.name, start: span.start, duration: span.running === true ? 0 : span.duration }));
  return { states };
}
