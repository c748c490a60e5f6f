import { defineListener } from '../listener';

/**
 * Rejects malformed requests before anything else runs (Symfony's ValidateRequestListener, 256):
 * a body refused by the adapter (413), an invalid Host header or method override (400).
 */
export const validateRequestListener = defineListener('ValidateRequestListener', {
  'kernel.request': [
    256,
    ({ isMainRequest, request }) => {
      if (!isMainRequest) return;
      if (request.data.bodyError !== null) throw request.data.bodyError;
      // Reading them validates them; the getters throw the 400.
      void request.host;
      void request.method;
    },
  ],
});
