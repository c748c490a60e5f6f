import { randomBytes } from 'node:crypto';
import { HeaderBag } from '../../http/header-bag';
import { type LoupeRequest } from '../../http/request';
import { type ProfiledRequest } from '../core/profiled-request';
import { serverTimingOf } from './server-timing-of';
import { profilePath, PROFILER_PREFIX, TOOLBAR_PREFIX } from '../profiler-paths';
import { allowToolbarInCsp } from '../ui/toolbar/toolbar-csp';
import { renderToolbarSnippet } from '../ui/toolbar/toolbar-snippet';
import { TOOLBAR_HEADER } from '../ui/web-debug-toolbar-listener';

/** The policies that may need a nonce for the toolbar's stylesheet and script. */
const POLICY_HEADERS = ['content-security-policy', 'content-security-policy-report-only'] as const;

/** The headers of a response not yet sent, as a server lets an adapter read and change them (names in any case). */
export interface ResponseHeaderAccess {
  /** One header as text (several values joined with `, `), or `undefined`. */
  get(name: string): string | undefined;
  set(name: string, value: string): void;
  remove(name: string): void;
}

/** How an adapter marks its responses. */
export interface MarkOptions {
  /** Whether the client may read profiles (PROFILER_ALLOWED_IPS): the toolbar is put only in their pages. */
  readonly isAllowedClient: (address: string) => boolean;
  /** Whether the response gets the request's `Server-Timing` (after the application's own metrics, where it set some). */
  readonly serverTiming: boolean;
}

/** Whether a response gets the toolbar, as Loupe's WebDebugToolbarListener and Symfony's decide. */
function wantsToolbar(request: LoupeRequest, status: number, headers: ResponseHeaderAccess): boolean {
  // Unlike the kernel, which measures a HEAD page as its GET, a foreign server has already sized its HEAD answer.
  if (request.data.method === 'HEAD' || (status >= 300 && status < 400)) return false;
  if (!(headers.get('content-type') ?? '').trimStart().toLowerCase().startsWith('text/html')) return false;
  if (headers.get('content-encoding') !== undefined) return false;
  if ((request.header('x-requested-with') ?? '').toLowerCase() === 'xmlhttprequest') return false;
  if (request.path.startsWith(PROFILER_PREFIX) || request.path.startsWith(TOOLBAR_PREFIX)) return false;
  // RFC 6266: the disposition type is the first token, in any letter case.
  return headers.get('content-disposition')?.split(';')[0]?.trim().toLowerCase() !== 'attachment';
}

/** Gives the toolbar a nonce where the page's Content-Security-Policy would refuse it. */
function allowToolbar(headers: ResponseHeaderAccess): string | null {
  const policies = POLICY_HEADERS.map((name) => [name, headers.get(name)] as const);
  // Most pages have no policy: nothing to rewrite, no bag to make.
  if (policies.every(([, value]) => value === undefined)) return null;
  const bag = new HeaderBag();
  for (const [name, value] of policies) if (value !== undefined) bag.set(name, value);
  const nonce = allowToolbarInCsp(bag, () => randomBytes(16).toString('base64'));
  if (nonce === null) return null;
  for (const name of POLICY_HEADERS) {
    const value = bag.get(name);
    if (value !== undefined) headers.set(name, value);
  }
  return nonce;
}

/** Adds the request's metrics (serverTimingOf) to the response's `Server-Timing`, after the application's own. */
function addServerTiming(request: ProfiledRequest, headers: ResponseHeaderAccess): void {
  const own = headers.get('server-timing');
  const timing = serverTimingOf(request.trace);
  headers.set('Server-Timing', own === undefined || own === '' ? timing : `${own}, ${timing}`);
}

/**
 * Marks a response of a foreign server about to be sent with `status`: `Server-Timing` (unless
 * `options.serverTiming` is off), `X-Debug-Token` and `X-Debug-Token-Link` when the request is
 * profiled, the `X-Debug-Toolbar` directive removed (it is meant for Loupe, not the client), and,
 * when the page is one that gets the toolbar (HTML, not compressed, redirected, attached, asked by
 * XHR or for HEAD; a client of PROFILER_ALLOWED_IPS; no `X-Debug-Toolbar: off`), the snippet to
 * put before its last `</body>`, its CSP given a nonce. Answers `null` when the page gets no toolbar.
 */
export function markResponse(request: ProfiledRequest, status: number, headers: ResponseHeaderAccess, options: MarkOptions): string | null {
  if (options.serverTiming) addServerTiming(request, headers);
  const token = request.respond(status);
  const directive = headers.get(TOOLBAR_HEADER);
  if (directive !== undefined) headers.remove(TOOLBAR_HEADER);
  if (token === null) return null;
  const { request: incoming } = request;
  headers.set('X-Debug-Token', token);
  headers.set('X-Debug-Token-Link', incoming.host === '' ? profilePath(token) : `${incoming.schemeAndHttpHost}${profilePath(token)}`);
  if (directive?.trim().toLowerCase() === 'off' || !wantsToolbar(incoming, status, headers) || !options.isAllowedClient(incoming.data.remoteAddress)) return null;
  return renderToolbarSnippet(token, allowToolbar(headers));
}
