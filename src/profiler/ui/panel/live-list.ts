import { STATUS_TEXT } from '../../../errors/status-text';
import { html, trustedHtml, type SafeHtml } from '../../../view/html';
import { ProfilerPaths } from '../../profiler-paths';
import { LIVE_SCRIPT, LIVE_SCRIPT_SOURCE } from './live-script';

/**
 * The Content-Security-Policy of a page with the live list: the panels' policy, plus exactly
 * the live script (by its hash) and WebSocket connections to this server only.
 */
export const LIVE_PAGE_CSP = `default-src 'none'; script-src ${LIVE_SCRIPT_SOURCE}; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** Which rows of the search the live list adds as well: those its stored rows show. */
export interface LiveListOptions {
  readonly subRequests: boolean;
  readonly favicon: boolean;
  /** The page's size: live rows push the oldest rows out of the table, which never holds more. */
  readonly limit: number;
  /** The page shown, from 1. */
  readonly page: number;
  /** Whether new rows belong at the top: the first page of the newest first; elsewhere they are counted only. */
  readonly newestFirst: boolean;
}

/** The reason phrases, for the script to write a live row's status as a stored row's. */
const STATUS_TEXT_JSON = JSON.stringify(STATUS_TEXT);

/**
 * The live list's controls: filters applied to the rows it adds (method, status class, path
 * substring, least duration), a pause button, the connection state, and the script. Without
 * script the page is the plain search page.
 */
export function renderLiveList(options: LiveListOptions = { subRequests: false, favicon: false, limit: 50, page: 1, newestFirst: true }): SafeHtml {
  return html`<section class="live" data-live="${ProfilerPaths.LIVE}" data-live-state="connecting" data-sub-requests="${options.subRequests ? '1' : ''}" data-favicon="${options.favicon ? '1' : ''}" data-limit="${options.limit}" data-page="${options.page}" data-insert="${options.newestFirst && options.page === 1 ? '1' : ''}" data-status-text="${STATUS_TEXT_JSON}" aria-label="Live requests">
<h3>Live requests <span class="live-state" role="status">connecting…</span></h3>
<div class="live-filters">
<label>Method <input name="live-method" placeholder="GET" size="7" /></label>
<label>Status <select name="live-status"><option value="">any</option><option value="2">2xx</option><option value="3">3xx</option><option value="4">4xx</option><option value="5">5xx</option></select></label>
<label>Path contains <input name="live-path" placeholder="/api" /></label>
<label>Min ms <input name="live-min-ms" type="number" min="0" step="any" size="6" /></label>
<button type="button" class="live-pause" aria-pressed="false">Pause</button>
</div>
<p class="help">New requests appear at the top of the table as any server sharing this Redis stores them; these filters apply to them only.</p>
<script>${trustedHtml(LIVE_SCRIPT)}</script>
</section>`;
}

/** The live list's stylesheet rules (the panel stylesheet is shared by every page). */
export const LIVE_LIST_STYLE = `
section.live { background: #fff; border: 1px solid #e2e2e2; padding: 8px 12px; margin-bottom: 16px; }
section.live h3 { margin: 0 0 6px; font-size: 14px; }
section.live .live-state { font-weight: normal; color: #777; margin-left: 8px; }
section.live[data-live-state="open"] .live-state { color: #4f805d; }
.live-filters { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: flex-end; }
.live-filters label { display: flex; flex-direction: column; font-size: 12px; color: #555; white-space: nowrap; }
.live-filters input, .live-filters select, .live-filters button { font: inherit; padding: 4px 6px; }
tr.live td { background: #f1f8f3; }
`;
