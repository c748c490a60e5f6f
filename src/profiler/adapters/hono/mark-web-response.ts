import { type ProfiledRequest } from '../../core/profiled-request';
import { insertToolbar } from '../insert-toolbar';
import { markResponse, type MarkOptions, type ResponseHeaderAccess } from '../mark-response';
import { readWholeBody } from './read-whole-body';

/** Largest HTML page held to put the toolbar in; a larger one is sent as it comes, without toolbar. */
const MAX_HELD_BYTES = 4 << 20;

function headerAccess(headers: Headers): ResponseHeaderAccess {
  return {
    get: (name) => headers.get(name) ?? undefined,
    set: (name, value) => headers.set(name, value),
    remove: (name) => headers.delete(name),
  };
}

/** Sets `Server-Timing` and the token headers on `headers`; answers the toolbar's snippet, or `null` (see markResponse). */
function mark(request: ProfiledRequest, status: number, headers: Headers, options: MarkOptions): string | null {
  return markResponse(request, status, headerAccess(headers), options);
}

/**
 * The response to send for `request` in place of the application's `response`: with
 * `X-Debug-Token`, its link and `Server-Timing` (set on its own headers, or on a copy of the
 * response when they cannot be changed, as those of a `fetch()` answer); and when it is an HTML
 * page that gets the toolbar (see markResponse), a new response whose page, read whole, has the
 * toolbar before its last `</body>`, `Content-Length` corrected and `ETag` removed. A page still
 * being streamed (it says `Transfer-Encoding`, or its reader has to wait), or larger than
 * MAX_HELD_BYTES, goes as it comes, without toolbar.
 */
export async function markWebResponse(request: ProfiledRequest, response: Response, options: MarkOptions): Promise<Response> {
  const { status } = response;
  // Outside 200–599 (a 101 of a WebSocket upgrade) no Response can be made again: it goes as it is.
  if (status < 200 || status > 599) {
    request.respond(status);
    return response;
  }
  let marked = response;
  let snippet: string | null;
  try {
    // The same response, when it can be: @hono/node-server writes a body it made from a string or bytes without streaming it.
    snippet = mark(request, status, marked.headers, options);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    marked = new Response(response.body, { status, statusText: response.statusText, headers: new Headers(response.headers) });
    snippet = mark(request, status, marked.headers, options);
  }
  // Only now is the body asked for: asking @hono/node-server's response for it makes a stream of it.
  if (snippet === null || marked.headers.has('transfer-encoding')) return marked;
  const { headers, body } = marked;
  if (body === null) return marked;
  const read = await readWholeBody(body, MAX_HELD_BYTES);
  if ('rest' in read) return new Response(read.rest, { status, statusText: marked.statusText, headers });
  const page = insertToolbar(read.whole, snippet);
  if (page !== null) {
    headers.delete('ETag');
    headers.set('Content-Length', String(page.length));
  }
  return new Response(page ?? read.whole, { status, statusText: marked.statusText, headers });
}
