import { preferredFormat } from '../../../error-handler/negotiate-format';
import { type LoupeRequest } from '../../../http/request';
import { LoupeResponse } from '../../../http/response';
import { type LoupeError } from '../../../errors/loupe-error';
import { STATUS_TEXT } from '../../../errors/status-text';
import { html } from '../../../view/html';
import { renderPanelLayout } from './panel-layout';
import { ProfilerPaths } from '../../profiler-paths';

/**
 * Defence in depth: the pages need no script and load nothing, so a browser refuses both even
 * if some request data ever slipped through unescaped.
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  Vary: 'Accept',
};

/** What a profiler page says, in both forms; only the one the client asked for is built. */
export interface NegotiatedContent {
  readonly html: () => string;
  readonly json: () => unknown;
}

/**
 * A profiler response negotiated as the error pages are: JSON when the client's first
 * acceptable Accept type is JSON (`application/json`), else the HTML page.
 */
export function negotiatedResponse(request: LoupeRequest, status: number, content: NegotiatedContent, options: { readonly htmlCsp?: string } = {}): LoupeResponse {
  if (preferredFormat(request) === 'json') {
    return new LoupeResponse(JSON.stringify(content.json()), status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json' });
  }
  // A page that runs a script of its own names exactly that script in its policy.
  const csp = options.htmlCsp === undefined ? {} : { 'Content-Security-Policy': options.htmlCsp };
  return new LoupeResponse(content.html(), status, { ...SECURITY_HEADERS, ...csp, 'Content-Type': 'text/html; charset=UTF-8' });
}

/**
 * A profiler error (unknown token or panel, dropped profile, invalid filter) rendered here
 * rather than thrown: a thrown error is rendered by an error sub-request, which is not a
 * profiler route and would be profiled, handing the client an X-Debug-Token.
 */
export function panelErrorResponse(request: LoupeRequest, status: number, heading: string, message: string): LoupeResponse {
  const statusText = STATUS_TEXT[status] ?? 'Error';
  return negotiatedResponse(request, status, {
    json: () => ({ type: 'https://tools.ietf.org/html/rfc2616#section-10', title: heading, status, detail: message }),
    html: () =>
      renderPanelLayout({
        content: html`<section class="summary status-error"><h2><span class="status-error-text">Error ${status} ${statusText}</span> — ${heading}</h2>
<p class="message">${message}</p></section>`,
      }),
  });
}

/**
 * 503: the profile storage failed or did not answer in time. The JSON form carries the error's
 * code; both say where this process's counters can still be read.
 */
export function storageUnavailableResponse(request: LoupeRequest, error: LoupeError): LoupeResponse {
  const detail = `${error.message} Profiles cannot be read until it answers again; ${ProfilerPaths.STATUS} shows this process's counters.`;
  return negotiatedResponse(request, 503, {
    json: () => ({ type: 'https://tools.ietf.org/html/rfc2616#section-10', title: 'Profile storage unavailable', status: 503, detail, code: error.code }),
    html: () =>
      renderPanelLayout({
        content: html`<section class="summary status-error"><h2><span class="status-error-text">Error 503 Service Unavailable</span> — Profile storage unavailable</h2>
<p class="message" data-code="${error.code}">${detail}</p>
<p><a href="${ProfilerPaths.STATUS}">Profiler status</a></p></section>`,
      }),
  });
}

/**
 * Symfony's "Token not found" info page (ProfilerController::panelAction renders
 * `Profiler/info.html.twig` with `about: no_token`): a 200, since the profiler worked.
 */
export function tokenNotFoundPage(token: string): LoupeResponse {
  const content = html`<section class="summary"><h2>Token not found</h2>
<p class="message">${`Token "${token}" not found.`}</p>
<p>The profile may have expired, or not be stored yet; <a href="${ProfilerPaths.HOME}">search the profiles</a>.</p></section>`;
  return new LoupeResponse(renderPanelLayout({ content }), 200, { ...SECURITY_HEADERS, 'Content-Type': 'text/html; charset=UTF-8' });
}
