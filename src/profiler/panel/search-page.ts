import { STATUS_TEXT } from '../../http/status-text';
import { type ProfileSummary } from '../profile';
import { type ProfilerStats } from '../profiler';
import { html, type SafeHtml } from '../../view/html';
import { renderLiveList } from './live-list';
import { renderPanelLayout } from './panel-layout';
import { formatTime } from './panel-format';
import { type SearchForm } from './search-criteria';
import { renderWriterCounters } from './writer-counters';
import { profilePath, ProfilerPaths } from '../profiler-paths';

const FIELDS: readonly (readonly [keyof SearchForm, string, string])[] = [
  ['ip', 'IP', '127.0.0.1'],
  ['method', 'Method', 'GET'],
  ['status_code', 'Status', '404'],
  ['url', 'URL contains', '/config'],
  ['start', 'From', 'ISO date or epoch ms'],
  ['end', 'Until', 'ISO date or epoch ms'],
  ['limit', 'Limit', '50'],
];

function renderForm(form: SearchForm): SafeHtml {
  return html`<form class="search" method="get" action="${ProfilerPaths.SEARCH}">
${FIELDS.map(([name, label, placeholder]) => html`<label>${label} <input name="${name}" value="${form[name]}" placeholder="${placeholder}" /></label>\n`)}<label>Token <input name="token" value="" placeholder="abc123" /></label>
<button type="submit">Search</button>
</form>`;
}

function renderRow(row: ProfileSummary, isChild: boolean, parentShown: boolean): SafeHtml {
  const time = formatTime(row.time);
  const status = row.statusCode === 0 ? 'aborted' : `${row.statusCode} ${STATUS_TEXT[row.statusCode] ?? ''}`;
  const parent = row.parent === null || parentShown ? '' : html` <span class="empty">sub-request of <a class="mono" href="${profilePath(row.parent)}">${row.parent}</a></span>`;
  return html`<tr class="${isChild ? 'sub' : 'main'}" data-token="${row.token}">
<td class="${row.statusCode >= 400 || row.statusCode === 0 ? 'level-error' : ''}">${status}</td><td>${row.ip}</td><td>${row.method}</td><td class="mono">${row.url}</td>
<td><time datetime="${time.iso}">${time.iso}</time></td>
<td>${isChild ? '↳ ' : ''}<a class="mono" href="${profilePath(row.token)}">${row.token}</a>${parent}</td>
</tr>\n`;
}

/**
 * Results newest first, each sub-request right under its parent when both are listed (else in
 * its own place, naming its parent).
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

/** The search page: the filter form, prefilled, and the matching profiles. */
export function renderSearchPage(form: SearchForm, rows: readonly ProfileSummary[], stats: ProfilerStats): string {
  return renderPanelLayout({
    sidebar: html`<h2>Profiler</h2>\n${renderWriterCounters(stats)}`,
    content: html`<h2>Profile Search</h2>
${renderForm(form)}
${renderLiveList()}
<h2 class="result-count">${rows.length === 0 ? 'No' : rows.length} results found</h2>
${rows.length === 0 ? '' : html`<table class="results">
<thead><tr><th>Status</th><th>IP</th><th>Method</th><th>URL</th><th>Time</th><th>Token</th></tr></thead>
<tbody>
${renderRows(rows)}</tbody>
</table>`}`,
  });
}
