import { LoupeError, type Controller } from '../../src';

/** `GET /session`: counts the visits of this browser in its session; kernel.view makes it JSON. */
export const sessionController: Controller = {
  name: 'session.count',
  handle: async ({ session }) => {
    if (session === null) {
      throw new LoupeError('LOUPE_ERR_SESSION_STORAGE', 'No session: the SessionListener is not registered, or this is a sub-request.');
    }
    await session.start();
    const previous = session.get('count');
    const count = (typeof previous === 'number' ? previous : 0) + 1;
    session.set('count', count);
    return { count };
  },
};
