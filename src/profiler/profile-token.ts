import { attributeKey } from '../kernel/attributes';
import { type Exchange } from '../kernel/exchange';

/** The token of a profiled exchange, set at kernel.response by the profiler listener. */
export const PROFILE_TOKEN = attributeKey<string>('profiler.token');

/** The profile token of `exchange`, or `null` when it is not profiled (yet). */
export function profileTokenOf(exchange: Exchange): string | null {
  return exchange.attributes.get(PROFILE_TOKEN) ?? null;
}
