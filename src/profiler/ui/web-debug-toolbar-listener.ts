import { randomBytes } from 'node:crypto';
import { createIpRangeMatcher } from '../../http/ip-range-matcher';
import { type LoupeRequest } from '../../http/request';
import { type LoupeResponse } from '../../http/response';
import { isStreamBody } from '../../http/response-body';
import { defineListener, type Listener } from '../../kernel/listener';
import { PROFILER_PREFIX, TOOLBAR_PREFIX } from '../profiler-paths';
import { allowToolbarInCsp } from './toolbar/toolbar-csp';
import { renderToolbarSnippet } from './toolbar/toolbar-snippet';

/** A response header by which a controller or listener keeps the toolbar out of its page: `X-Debug-Toolbar: off`. */
export const TOOLBAR_HEADER = 'X-Debug-Toolbar';

/** The profiler's tokens; anything else in `X-Debug-Token` was not set by the profiler and is never put in a page. */
const TOKEN = /^[0-9a-f]{6}$/;

/** A nonce of 128 random bits, as CSP3 §7.4 asks. */
const makeNonce = (): string => randomBytes(16).toString('base64');

/** Where the last `</body>` starts in `body` (a string's index, a buffer's byte offset), in any letter case, or -1 (Symfony's strripos). */
export function lastBodyEnd(body: string | Buffer): number {
  for (let at = body.lastIndexOf('</'); at !== -1; at = at === 0 ? -1 : body.lastIndexOf('</', at - 1)) {
    const tag = typeof body === 'string' ? body.slice(at, at + 7) : body.toString('latin1', at, at + 7);
    if (tag.toLowerCase() === '</body>') return at;
  }
  return -1;
}

/** True when the response is of a kind that never gets the toolbar; cheapest checks first. */
function isExcluded(request: LoupeRequest, response: LoupeResponse): boolean {
  // HEAD gets it too, unsent: its Content-Length is then its GET's (RFC 9110 §9.3.2), as in Symfony.
  if (response.isRedirect) return true;
  const type = (response.headers.get('Content-Type') ?? '').trimStart().toLowerCase();
  if (!type.startsWith('text/html')) return true;
  const path = request.path;
  if (path.startsWith(PROFILER_PREFIX) || path.startsWith(TOOLBAR_PREFIX)) return true;
  if (request.header('x-requested-with')?.toLowerCase() === 'xmlhttprequest') return true;
  // RFC 6266: the disposition type is the first token, in any letter case.
  const disposition = response.headers.get('Content-Disposition');
  return disposition !== undefined && disposition.split(';')[0]?.trim().toLowerCase() === 'attachment';
}

/**
 * Injects the web debug toolbar into profiled HTML pages (Symfony's WebDebugToolbarListener,
 * kernel.response at -128: after the ProfilerListener at -100 gave the response its token): a
 * placeholder bar before the last `</body>`, and a script that loads its content from
 * `/_wdt/{token}` once the page is shown, so the page is never held for the profile.
 *
 * Left out: sub-requests, responses without a token (not profiled, e.g. the profiler's own
 * pages), streamed bodies, redirects, anything but `text/html`, pages without `</body>`, XHR requests
 * (`X-Requested-With: XMLHttpRequest`), attachments, clients outside PROFILER_ALLOWED_IPS (the
 * toolbar's content would be refused to them), and responses that carry `X-Debug-Toolbar: off`
 * (the header is removed: it is meant for Loupe, not the client). A Content-Security-Policy on
 * the page gets a nonce for the toolbar's script and stylesheet (see allowToolbarInCsp).
 */
export function createWebDebugToolbarListener(allowedIps: readonly string[]): Listener {
  const isAllowed = createIpRangeMatcher(allowedIps);
  return defineListener('WebDebugToolbarListener', {
    'kernel.response': [
      -128,
      (event) => {
        const { request, response } = event;
        if (!event.isMainRequest) return;
        const directive = response.headers.get(TOOLBAR_HEADER);
        if (directive !== undefined) {
          response.headers.delete(TOOLBAR_HEADER);
          if (directive.trim().toLowerCase() === 'off') return;
          event.log('warning', `The response header ${TOOLBAR_HEADER} has the unknown value "${directive}": only "off" is understood; the toolbar was injected.`);
        }
        const token = response.headers.get('X-Debug-Token');
        const { body } = response;
        // A streamed page is not held back to find its `</body>`: it goes out without the toolbar.
        if (token === undefined || !TOKEN.test(token) || isStreamBody(body) || isExcluded(request, response)) return;
        const end = lastBodyEnd(body);
        if (end === -1 || !isAllowed(request.data.remoteAddress)) return;
        const snippet = renderToolbarSnippet(token, allowToolbarInCsp(response.headers, makeNonce));
        response.body =
          typeof body === 'string' ? body.slice(0, end) + snippet + body.slice(end) : Buffer.concat([body.subarray(0, end), Buffer.from(snippet), body.subarray(end)]);
        // The length the ResponseListener set plus the snippet's: measuring the joined page would flatten it, for no gain.
        // The snippet is ASCII (see renderToolbarSnippet): its length is its size in bytes.
        const length = response.headers.get('Content-Length');
        if (length !== undefined) response.headers.set('Content-Length', String(Number(length) + snippet.length));
      },
    ],
  });
}
