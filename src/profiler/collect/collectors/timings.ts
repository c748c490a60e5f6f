import { type CollectedRequest } from '../../../kernel/collected-request';

/** Milliseconds to the microsecond: the stored profile stays small (timings are the bulk of it). */
export function roundMs(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/**
 * The profile's duration: milliseconds from the request's start to the end of its last state
 * (0 without states), its start and duration each rounded as the timeline stores them.
 */
export function profileDuration(exchange: CollectedRequest): number {
  const { spans } = exchange.trace;
  let last = spans.length - 1;
  while (last >= 0 && spans[last]?.depth !== 0) last--;
  const state = spans[last];
  return state === undefined ? 0 : roundMs(roundMs(state.start) + roundMs(Math.max(state.duration, 0)));
}
