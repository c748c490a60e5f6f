import { type PhaseRecord } from '../../kernel/trace';
import { type ProfileCollector } from '../collector';
import { roundedStates } from './timings';

export const MACHINE_COLLECTOR = 'machine';

export interface MachineCollectorData {
  /** Every state the request's actor entered, kernel phases and its own (received, controller, error_sub_request…). */
  readonly states: readonly PhaseRecord[];
}

/** The request machine's states with their timing (Symfony's time collector, by state). */
export const machineCollector: ProfileCollector<MachineCollectorData> = {
  name: MACHINE_COLLECTOR,
  collect: (exchange) => ({ states: roundedStates(exchange) }),
};
