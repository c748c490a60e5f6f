import { type Listener } from '../kernel/listener';

/**
 * `X-Debug-Token-Link`: the absolute URL of the profile of a profiled response (Symfony's
 * WebDebugToolbarListener, -128), so API clients can jump from any response to its trace.
 */
export const debugTokenLinkListener: Listener = {
  name: 'DebugTokenLinkListener',
  subscriptions: {
    'kernel.response': {
      priority: -128,
      handle: ({ request, response }) => {
        const token = response?.headers.get('X-Debug-Token');
        if (response === null || token === undefined) return;
        response.headers.set('X-Debug-Token-Link', `${request.schemeAndHttpHost}/_profiler/${token}`);
      },
    },
  },
};
