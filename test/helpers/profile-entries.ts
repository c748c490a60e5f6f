import { eventsOf, type EventsView } from '../../src/profiler/collect/collectors/events-view';
import { EXCEPTION_COLLECTOR, type ExceptionCollectorData } from '../../src/profiler/collect/collectors/exception-collector';
import { LOGS_COLLECTOR, type LogsCollectorData } from '../../src/profiler/collect/collectors/logs-collector';
import { machineOf, type MachineView } from '../../src/profiler/collect/collectors/machine-view';
import { REQUEST_COLLECTOR, type RequestCollectorData } from '../../src/profiler/collect/collectors/request-collector';
import { ROUTER_COLLECTOR, type RouterCollectorData } from '../../src/profiler/collect/collectors/router-collector';
import { collectorData, type Profile } from '../../src/profiler/profile';

/** The entries of Loupe's own collectors in a profile. */
export interface DefaultEntries {
  readonly request: RequestCollectorData;
  readonly exception: ExceptionCollectorData;
  readonly logs: LogsCollectorData;
  /** Read from the timeline's entry, as the Events panel reads it. */
  readonly events: EventsView;
  readonly router: RouterCollectorData;
  /** Read from the timeline's entry, as the State machine panel reads it. */
  readonly machine: MachineView;
}

/** The default collectors' entries of `profile`, typed; one that is missing fails the test. */
export function entries(profile: Profile | null | undefined): DefaultEntries {
  if (profile === null || profile === undefined) throw new Error('There is no profile to read entries from.');
  const entry = <TData extends object>(name: string): TData => {
    const data = collectorData<TData>(profile, name);
    if (data === undefined) throw new Error(`Profile ${profile.token} has no "${name}" collector entry.`);
    return data;
  };
  const view = <TView>(found: TView | undefined, name: string): TView => {
    if (found === undefined) throw new Error(`Profile ${profile.token} has no timeline to read its ${name} from.`);
    return found;
  };
  return {
    request: entry<RequestCollectorData>(REQUEST_COLLECTOR),
    exception: entry<ExceptionCollectorData>(EXCEPTION_COLLECTOR),
    logs: entry<LogsCollectorData>(LOGS_COLLECTOR),
    events: view(eventsOf(profile), 'events'),
    router: entry<RouterCollectorData>(ROUTER_COLLECTOR),
    machine: view(machineOf(profile), 'machine'),
  };
}
