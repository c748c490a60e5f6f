import { LoupeResponse } from '../../http/response';
import { defineListener } from '../listener';

/** Turns data a controller returned into a JSON response at kernel.view. */
export const jsonViewListener = defineListener('JsonViewListener', {
  'kernel.view': [
    0,
    (event) => {
      const result = event.controllerResult;
      if (event.response !== null || result === undefined || result === null) return;
      event.setResponse(LoupeResponse.json(result));
    },
  ],
});
