import { type CollectedRequest } from '../../../kernel/collected-request';
import { type PhaseRecord } from '../../../kernel/trace';

/** Milliseconds to the microsecond: the stored profile stays small (timings are the bulk of it). */
export function roundMs(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Every state the exchange's machine entered, in order, timings rounded. */
export function roundedStates(exchange: CollectedRequest): PhaseRecord[] {
  return exchange.trace.states.map((state) => ({ name: state.name, start: roundMs(state.start), duration: roundMs(state.duration) }));
}

/** Milliseconds from the request's start to the end of its last state, rounded as roundedStates' last one (0 without states). */
export function lastStateEnd(exchange: CollectedRequest): number {
  const { spans } = exchange.trace;
  let last = spans.length - 1;
  while (last >= 0 && spans[last]?.depth !== 0) last--;
  const state = spans[last];
  return state === undefined ? 0 : roundMs(roundMs(state.start) + roundMs(Math.max(state.duration, 0)));
}
