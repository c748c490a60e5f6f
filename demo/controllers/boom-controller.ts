import { type Controller } from '../../src';

/** `GET /boom`: a controller that throws, to see the exception branch at work. */
export const boomController: Controller = {
  name: 'boom.boom',
  handle: () => {
    throw new Error('Boom! This controller failed on purpose.', { cause: new RangeError('The inner cause of the boom.') });
  },
};

/** `GET /boom/async`: the same, as a rejected promise. */
export const asyncBoomController: Controller = {
  name: 'boom.asyncBoom',
  handle: async () => {
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('Boom! This async controller rejected on purpose.');
  },
};
