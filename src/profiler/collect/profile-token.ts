import { attributeKey } from '../../kernel/attributes';
import { type ReadonlyAttributes } from '../../kernel/collected-request';

/** The token of a profiled exchange, set at kernel.response by the profiler listener. */
export const PROFILE_TOKEN = attributeKey<string>('profiler.token');

/** The profile token of `exchange`, or `null` when it is not profiled (yet). */
export function profileTokenOf(exchange: { readonly attributes: ReadonlyAttributes }): string | null {
  return exchange.attributes.get(PROFILE_TOKEN) ?? null;
}
