import { discardBody, isStreamBody } from '../../http/response-body';
import { defineListener } from '../listener';

/**
 * Response defaults for the main request (Symfony's ResponseListener and Response::prepare):
 * a content type with charset, the default `Cache-Control: no-cache, private`, and the length
 * of a body held whole (a streamed body keeps the length its application set, or goes chunked).
 */
export const responseListener = defineListener('ResponseListener', {
  'kernel.response': [
    0,
    ({ response, isMainRequest }) => {
      if (!isMainRequest) return;
        const { headers } = response;
        const noBody = response.status === 204 || response.status === 304 || response.status < 200;
        if (noBody) {
          // RFC 9110 §8.6: no Content-Length on a 204 (nor, as Symfony does, on 1xx and 304).
          discardBody(response.body);
          response.body = '';
          headers.delete('Content-Type');
          headers.delete('Content-Length');
        } else {
          const type = headers.get('Content-Type');
          if (type === undefined) headers.set('Content-Type', 'text/html; charset=UTF-8');
          else if (type.startsWith('text/') && !type.includes('charset')) headers.set('Content-Type', `${type}; charset=UTF-8`);
        }
        if (!headers.has('Cache-Control') && response.defaultCacheControl) {
          // RFC 9111 §5.2.2: with Expires or Last-Modified a cache may store; Symfony then asks to revalidate.
          const validators = headers.has('Expires') || headers.has('Last-Modified');
          headers.set('Cache-Control', validators ? 'private, must-revalidate' : 'no-cache, private');
        }
        const { body } = response;
        if (!noBody && !isStreamBody(body)) headers.set('Content-Length', String(Buffer.byteLength(body)));
    },
  ],
});
