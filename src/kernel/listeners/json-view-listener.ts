import { Response } from '../../http/response';
import { type Listener } from '../listener';

/** Turns data a controller returned into a JSON response at kernel.view. */
export const viewListener: Listener = {
  name: 'JsonViewListener',
  subscriptions: {
    'kernel.view': {
      priority: 0,
      handle: (exchange) => {
        const result = exchange.controllerResult;
        if (exchange.response !== null || result === undefined || result === null) return;
        exchange.response = Response.json(result);
      },
    },
  },
};
