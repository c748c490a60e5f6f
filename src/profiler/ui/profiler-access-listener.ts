import { ForbiddenHttpError } from '../../errors/http-error';
import { LoupeError } from '../../errors/loupe-error';
import { defineListener, type Listener } from '../../kernel/listener';
import { createIpRangeMatcher } from '../../http/ip-range-matcher';
import { createHostMatcher } from './profiler-hosts';

/**
 * Keeps the profiler and its toolbar's content (`_profiler*`, `_wdt`) to the client addresses of
 * PROFILER_ALLOWED_IPS (kernel.request, 31: right after the RouterListener at 32 named the route).
 * A profile holds headers, bodies and session data of other people's requests: a refused client
 * gets a 403, and so does a request whose Host is not an IP address, localhost or one of
 * PROFILER_ALLOWED_HOSTS (a page of another site rebound to this address: DNS rebinding). Only main requests are checked; an error sub-request renders the error and matches
 * no route.
 */
export function createProfilerAccessListener(allowedRanges: readonly string[], allowedHosts: readonly string[] = []): Listener {
  const isAllowedHost = createHostMatcher(allowedHosts);
  let isAllowed: (address: string) => boolean;
  try {
    isAllowed = createIpRangeMatcher(allowedRanges);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid PROFILER_ALLOWED_IPS: ${reason}`, { cause: error });
  }
  return defineListener('ProfilerAccessListener', {
    'kernel.request': [
      31,
      (event) => {
        const { request } = event;
        if (!event.isMainRequest) return;
        const route = request.attributes.get('_route');
        if (typeof route !== 'string' || !(route.startsWith('_profiler') || route.startsWith('_wdt'))) return;
        const host = request.header('host') ?? '';
        if (!isAllowedHost(host)) {
          event.log('warning', 'Profiler access refused for its Host.', { host });
          throw new ForbiddenHttpError(`The profiler answers only for an IP address, localhost or a host of PROFILER_ALLOWED_HOSTS, not for the Host "${host}".`);
        }
        const address = request.data.remoteAddress;
        if (isAllowed(address)) return;
        event.log('warning', 'Profiler access refused.', { address });
        throw new ForbiddenHttpError(`The profiler is not available to the client address "${address}": it is outside PROFILER_ALLOWED_IPS.`);
      },
    ],
  });
}
