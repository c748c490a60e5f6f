import { LoupeResponse } from '../http/response';

/**
 * The last-resort answer when rendering an error failed too: no template, no listener, nothing
 * that can throw. It carries the directives every response must have.
 */
export function minimalErrorResponse(): LoupeResponse {
  return new LoupeResponse('Internal Server Error', 500, {
    'Content-Type': 'text/plain; charset=UTF-8',
    'Cache-Control': 'no-cache, private',
    'X-Robots-Tag': 'noindex',
  });
}
