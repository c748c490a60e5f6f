import { defineListener } from '../kernel/listener';
import { profilePath } from './profiler-paths';

/**
 * `X-Debug-Token-Link`: the absolute URL of the profile of a profiled response (Symfony's
 * WebDebugToolbarListener, -128), so API clients can jump from any response to its trace.
 */
export const debugTokenLinkListener = defineListener('DebugTokenLinkListener', {
  'kernel.response': [
    -128,
    ({ request, response }) => {
      const token = response.headers.get('X-Debug-Token');
      // No host (an invalid Host header was refused): no absolute URL can be made.
      if (token === undefined || request.host === '') return;
      response.headers.set('X-Debug-Token-Link', `${request.schemeAndHttpHost}${profilePath(token)}`);
    },
  ],
});
