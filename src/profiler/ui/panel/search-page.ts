import { STATUS_TEXT } from '../../../errors/status-text';
import { type ProfileSummary } from '../../profile';
import { type ProfilerStats } from '../../profiler';
import { SEARCH_SCAN_LIMIT, type SearchResult } from '../../storage/profile-storage';
import { html, type SafeHtml } from '../../../view/html';
import { renderLiveList } from './live-list';
import { renderPanelLayout } from './panel-layout';
import { formatMs, formatTime, renderUrlPath, statusLevel } from './panel-format';
import { searchQueryString, type SearchForm } from './search-criteria';
import { renderSidebarCounters } from './writer-counters';
import { profilePath, ProfilerPaths } from '../../profiler-paths';

const FIELDS: readonly (readonly [keyof SearchForm, string, string])[] = [
  ['ip', 'IP', '127.0.0.1'],
  ['method', 'Method', 'GET'],
  ['status_code', 'Status', '404 or 5xx'],
  ['url', 'URL contains', '/config'],
  ['min_queries', 'At least queries', '10'],
  ['start', 'From', 'ISO date or epoch ms'],
  ['end', 'Until', 'ISO date or epoch ms'],
  ['limit', 'Per page', '50'],
];

const TOGGLES: readonly (readonly [keyof SearchForm, string])[] = [
  ['aborted', 'Aborted only'],
  ['sub_requests', 'Show error sub-requests'],
  ['favicon', 'Show favicon.ico'],
  ['n_plus_one', 'With N+1 queries'],
];

function option(value: string, label: string, current: string): SafeHtml {
  return html`<option value="${value}"${value === current ? html` selected` : ''}>${label}</option>`;
}

function renderForm(form: SearchForm): SafeHtml {
  return html`<form class="search" method="get" action="${ProfilerPaths.SEARCH}">
${FIELDS.map(([name, label, placeholder]) => html`<label>${label} <input name="${name}" value="${form[name]}" placeholder="${placeholder}" /></label>\n`)}<label>Sort <select name="sort">${option('time', 'Time', form.sort || 'time')}${option('duration', 'Duration', form.sort)}</select></label>
<label>Order <select name="order">${option('desc', 'Descending', form.order || 'desc')}${option('asc', 'Ascending', form.order)}</select></label>
${TOGGLES.map(([name, label]) => html`<label class="toggle"><input type="checkbox" name="${name}" value="1"${form[name] === '' ? '' : html` checked`} /> ${label}</label>\n`)}<label>Token <input name="token" value="" placeholder="abc123" /></label>
<button type="submit">Search</button>
</form>`;
}

/** The row's SQL query count, marked when a query ran in a loop; `–` in rows stored before Loupe counted them. */
function renderQueries(row: ProfileSummary): SafeHtml {
  if (row.queries === undefined) return html`<td class="queries">–</td>`;
  const loops = row.nPlusOne ?? 0;
  const mark = loops === 0 ? '' : html` <span class="n-plus-one" title="${loops} query shape${loops === 1 ? '' : 's'} run in a loop">N+1</span>`;
  const time = row.queryTime === undefined || row.queries === 0 ? '' : html` <span class="empty">${formatMs(row.queryTime)}</span>`;
  return html`<td class="queries" data-queries="${row.queries}">${row.queries}${time}${mark}</td>`;
}

function renderRow(row: ProfileSummary, isChild: boolean, parentShown: boolean): SafeHtml {
  const time = formatTime(row.time);
  const status = row.statusCode === 0 ? 'aborted' : String(row.statusCode);
  const reason = row.statusCode === 0 ? 'No response: the client disconnected' : (STATUS_TEXT[row.statusCode] ?? '');
  const level = statusLevel(row.statusCode);
  const parent = row.parent === null || parentShown ? '' : html` <span class="empty">sub-request of <a class="mono" href="${profilePath(row.parent)}">${row.parent}</a></span>`;
  return html`<tr class="${isChild ? 'sub' : 'main'}" data-token="${row.token}">
<td class="status${level === '' ? '' : ` level-${level}`}" title="${reason}">${status}</td><td>${row.ip}</td><td>${row.method}</td><td class="mono url" title="${row.url}">${renderUrlPath(row.url)}</td>
<td><time datetime="${time.iso}">${time.iso}</time></td><td class="duration">${row.duration === undefined ? '–' : formatMs(row.duration)}</td>${renderQueries(row)}
<td>${isChild ? '↳ ' : ''}<a class="mono" href="${profilePath(row.token)}">${row.token}</a>${parent}</td>
</tr>\n`;
}

/**
 * Results in the order asked for, each sub-request right under its parent when both are listed
 * (else in its own place, naming its parent).
 */
function renderRows(rows: readonly ProfileSummary[]): SafeHtml[] {
  const listed = new Set(rows.map((row) => row.token));
  const out: SafeHtml[] = [];
  for (const row of rows) {
    if (row.parent !== null && row.parent !== row.token && listed.has(row.parent)) continue;
    out.push(renderRow(row, row.parent !== null, false));
    for (const child of rows) if (child.parent === row.token && child !== row) out.push(renderRow(child, true, true));
  }
  return out;
}

/** Where this page stands among the matches, and the links to the pages around it, with the same criteria. */
function renderPager(form: SearchForm, result: SearchResult, page: number, limit: number): SafeHtml {
  const pages = Math.max(1, Math.ceil(result.total / limit));
  const first = result.total === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(result.total, page * limit);
  const link = (to: number, label: string, rel: string): SafeHtml => html`<a rel="${rel}" href="?${searchQueryString(form, { page: String(to) })}">${label}</a>`;
  return html`<nav class="pager"><span data-range="${first}-${last}">${first}–${last} of ${result.total}, page ${page} of ${pages}</span>
${page > 1 ? link(Math.min(page - 1, pages), '← Previous', 'prev') : ''} ${page < pages ? link(page + 1, 'Next →', 'next') : ''}</nav>`;
}

/** What the search page shows: the form as typed, one page of results, which page of how many. */
export interface SearchPageContent {
  readonly form: SearchForm;
  readonly result: SearchResult;
  readonly page: number;
  readonly limit: number;
}

/** The search page: the filter form, prefilled, the total of matches and one page of them. */
export function renderSearchPage(content: SearchPageContent, stats: ProfilerStats | null): string {
  const { form, result } = content;
  const rows = result.rows.flatMap((row) => (row.ok ? [row.summary] : []));
  return renderPanelLayout({
    sidebar: renderSidebarCounters(stats),
    content: html`<h2>Profile Search</h2>
${renderForm(form)}
${renderLiveList({ subRequests: form.sub_requests !== '', favicon: form.favicon !== '', limit: content.limit, page: content.page, newestFirst: (form.sort || 'time') === 'time' && (form.order || 'desc') === 'desc' })}
<h2 class="result-count" data-total="${result.total}">${result.total === 0 ? 'No' : result.total} results found</h2>
${result.complete ? '' : html`<p class="empty scan-limit">Only the newest ${SEARCH_SCAN_LIMIT} profiles of this time range were searched; narrow From and Until to search older ones.</p>`}
${rows.length === 0 ? '' : html`<table class="results">
<thead><tr><th>Status</th><th>IP</th><th>Method</th><th>URL</th><th>Time</th><th>Duration</th><th>Queries</th><th>Token</th></tr></thead>
<tbody>
${renderRows(rows)}</tbody>
</table>`}
${result.total === 0 ? '' : renderPager(form, result, content.page, content.limit)}`,
  });
}
