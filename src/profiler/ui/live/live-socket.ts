import { type WebSocketRoute } from '../../../server/web-socket-route';
import { ProfilerPaths } from '../../profiler-paths';
import { type LiveFeed } from './live-feed';
import { createHostMatcher, originHost } from '../profiler-hosts';


/**
 * Clients of the live feed one process serves at once: each that never reads holds up to uWS's
 * backpressure limit (256 KiB), so 2,000 of them took 812 MB; past this one an upgrade gets a 503.
 */
export const MAX_LIVE_CLIENTS = 100;

/**
 * `/_profiler/live`: the summaries of the profiles every process sharing the prefix stores, as
 * they are stored, to every client allowed by PROFILER_ALLOWED_IPS from a page of its own origin.
 * A client is upgraded once the feed is subscribed, so it misses nothing sent after it connected.
 */
export function createLiveSocketRoute(live: LiveFeed, isAllowed: (address: string) => boolean, allowedHosts: readonly string[] = [], maxClients = MAX_LIVE_CLIENTS): WebSocketRoute {
  const isAllowedHost = createHostMatcher(allowedHosts);
  let clients = 0;
  return {
    path: ProfilerPaths.LIVE,
    refuse: ({ address, host, origin }) => {
      if (!isAllowed(address)) return `The profiler is not available to the client address "${address}": it is outside PROFILER_ALLOWED_IPS.`;
      if (clients >= maxClients) return { status: 503, message: `The live profile feed serves ${maxClients} clients at most; try again once one has left.` };
      if (!isAllowedHost(host)) return `The live profile feed answers only for an IP address, localhost or a host of PROFILER_ALLOWED_HOSTS, not for the Host "${host}".`;
      // A browser sends Origin with every handshake, and WebSockets are not held to the same-origin
      // policy: the page must be the profiler's own. Host alone says nothing after a rebinding (the
      // attacker's name is both), hence the host check above. Only clients that send no Origin at
      // all (CLI, scripts) pass without one; `null` or `file://` is a page too (a downloaded file).
      if (origin === '') return null;
      const from = originHost(origin);
      return from !== null && from === host.toLowerCase() && isAllowedHost(from) ? null : 'The live profile feed only accepts pages of its own origin.';
    },
    ready: () => live.start(),
    unavailable: 'The live profile feed is unavailable: Redis did not answer.',
    start: (publish) => live.onMessage(publish),
    open: () => {
      clients += 1;
    },
    close: () => {
      clients -= 1;
    },
  };
}
