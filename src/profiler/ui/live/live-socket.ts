import { type WebSocketRoute } from '../../../server/web-socket-route';
import { ProfilerPaths } from '../../profiler-paths';
import { type LiveFeed } from './live-feed';

/**
 * A browser sends Origin with every WebSocket handshake, and WebSockets are not held to the
 * same-origin policy: without this check any page the developer opens could read the feed.
 * Clients that send none (the CLI, scripts) are judged by their address alone.
 */
function isSameOrigin(origin: string, host: string): boolean {
  if (origin === '') return true;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * `/_profiler/live`: the summaries of the profiles every process sharing the prefix stores, as
 * they are stored, to every client allowed by PROFILER_ALLOWED_IPS from a page of its own origin.
 * A client is upgraded once the feed is subscribed, so it misses nothing sent after it connected.
 */
export function createLiveSocketRoute(live: LiveFeed, isAllowed: (address: string) => boolean): WebSocketRoute {
  return {
    path: ProfilerPaths.LIVE,
    refuse: ({ address, host, origin }) => {
      if (!isAllowed(address)) return `The profiler is not available to the client address "${address}": it is outside PROFILER_ALLOWED_IPS.`;
      return isSameOrigin(origin, host) ? null : 'The live profile feed only accepts pages of its own origin.';
    },
    ready: () => live.start(),
    unavailable: 'The live profile feed is unavailable: Redis did not answer.',
    start: (publish) => live.onMessage(publish),
  };
}
