import { type Listener } from '../listener';

/** `X-Robots-Tag: noindex` on every response in debug, sub-requests included (Symfony, -255). */
export const disallowRobotsIndexingListener: Listener = {
  name: 'DisallowRobotsIndexingListener',
  subscriptions: {
    'kernel.response': {
      priority: -255,
      handle: ({ response }) => {
        if (response !== null && !response.headers.has('X-Robots-Tag')) response.headers.set('X-Robots-Tag', 'noindex');
      },
    },
  },
};
