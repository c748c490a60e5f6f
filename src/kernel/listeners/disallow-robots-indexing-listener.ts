import { defineListener } from '../listener';

/** `X-Robots-Tag: noindex` on every response in debug, sub-requests included (Symfony, -255). */
export const disallowRobotsIndexingListener = defineListener('DisallowRobotsIndexingListener', {
  'kernel.response': [
    -255,
    ({ response }) => {
      if (!response.headers.has('X-Robots-Tag')) response.headers.set('X-Robots-Tag', 'noindex');
    },
  ],
});
