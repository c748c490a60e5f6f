import { defineListener } from '../../kernel/listener';
import { profilePath } from '../profiler-paths';

/**
 * `X-Debug-Token-Link`: the absolute URL of the profile of a profiled response (Symfony's
 * WebDebugToolbarListener, -128), so API clients can jump from any response to its trace.
 */
export const debugTokenLinkListener = defineListener('DebugTokenLinkListener', {
  'kernel.response': [
    -128,
    ({ request, response }) => {
      const token = response.headers.get('X-Debug-Token');
      if (token === undefined) return;
      // An invalid Host header was refused: as Symfony, whose getHost() is then empty, the link is the bare path.
      response.headers.set('X-Debug-Token-Link', request.host === '' ? profilePath(token) : `${request.schemeAndHttpHost}${profilePath(token)}`);
    },
  ],
});
