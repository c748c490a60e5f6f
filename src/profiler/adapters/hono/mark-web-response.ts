import { type ProfiledRequest } from '../../core/profiled-request';
import { insertToolbar } from '../insert-toolbar';
import { markResponse, type ResponseHeaderAccess } from '../mark-response';
import { serverTimingOf } from '../server-timing-of';
import { readWholeBody } from './read-whole-body';

/** Largest HTML page held to put the toolbar in; a larger one is sent as it comes, without toolbar. */
const MAX_HELD_BYTES = 4 << 20;

export interface MarkOptions {
  /** Whether the client may read profiles (PROFILER_ALLOWED_IPS): the toolbar is put only in their pages. */
  readonly isAllowedClient: (address: string) => boolean;
  /** Whether the response gets a `Server-Timing` header. */
  readonly serverTiming: boolean;
}

function headerAccess(headers: Headers): ResponseHeaderAccess {
  return {
    get: (name) => headers.get(name) ?? undefined,
    set: (name, value) => headers.set(name, value),
    remove: (name) => headers.delete(name),
  };
}

/**
 * The response to send for `request` in place of the application's `response`: the same status
 * and body, its headers copied (those of a `fetch()` answer cannot be changed) with
 * `X-Debug-Token`, its link and `Server-Timing`; and an HTML page that gets the toolbar (see
 * markResponse) read whole and given it before its last `</body>`, `Content-Length` corrected and
 * `ETag` removed. A page still being streamed (it says `Transfer-Encoding`, or its reader has to
 * wait), or larger than MAX_HELD_BYTES, goes as it comes, without toolbar.
 */
export async function markWebResponse(request: ProfiledRequest, response: Response, options: MarkOptions): Promise<Response> {
  const { status } = response;
  // Outside 200–599 (a 101 of a WebSocket upgrade) no Response can be made again: it goes as it is.
  if (status < 200 || status > 599) {
    request.respond(status);
    return response;
  }
  const headers = new Headers(response.headers);
  if (options.serverTiming) {
    const own = headers.get('server-timing');
    const timing = serverTimingOf(request.trace);
    headers.set('Server-Timing', own === null ? timing : `${own}, ${timing}`);
  }
  const snippet = markResponse(request, status, headerAccess(headers), options.isAllowedClient);
  let body: ReadableStream<Uint8Array> | Buffer | null = response.body;
  if (snippet !== null && body !== null && !headers.has('transfer-encoding')) {
    const read = await readWholeBody(body, MAX_HELD_BYTES);
    const page = 'whole' in read ? insertToolbar(read.whole, snippet) : null;
    body = 'rest' in read ? read.rest : (page ?? read.whole);
    if (page !== null) {
      headers.delete('ETag');
      headers.set('Content-Length', String(page.length));
    }
  }
  return new Response(body, { status, statusText: response.statusText, headers });
}
