import { type PhaseRecord } from '../../kernel/trace';
import { eventsOf } from '../collect/collectors/events-view';
import { machineOf } from '../collect/collectors/machine-view';
import { type Profile } from '../profile';

/** The machine's states a phase chart shows: the kernel's phases and the controller's own state between them. */
const CHARTED = /^(?:kernel\.|controller$)/;

/**
 * The phases the Events chart and `profiler:show` draw, in order: the kernel's, and the
 * `controller` state in which the application's code ran (most often the longest bar, which a
 * chart of `kernel.*` alone leaves as a gap). `undefined` when the profile recorded neither.
 */
export function requestPhases(profile: Profile): readonly PhaseRecord[] | undefined {
  const charted = machineOf(profile)?.states.filter((state) => CHARTED.test(state.name)) ?? [];
  // A profile stored before the timeline held the states has its phases in an `events` entry.
  return charted.length > 0 ? charted : eventsOf(profile)?.phases;
}
