import { STATUS_TEXT } from '../../../errors/status-text';
import { isUnchanged, type ComparedSide, type IoDiff, type ProfileComparison, type TimingDiff } from '../compare-profiles';
import { type ProfilerStats } from '../../profiler';
import { type QueryShapeChanges } from '../../app-io/query-shape-changes';
import { html, type SafeHtml } from '../../../view/html';
import { renderPanelLayout } from './panel-layout';
import { formatMs, formatTime } from './panel-format';
import { renderSidebarCounters } from './writer-counters';
import { comparePath, profilePath } from '../../profiler-paths';

function ms(value: number | null): string {
  return value === null ? '–' : formatMs(value);
}

/** `+1.20 ms (+15.0 %)`: what `b` took more (or less) than `a`; `±0.00 ms` below what can be shown. */
export function formatTimingDiff(row: TimingDiff): string {
  if (row.diff === null) return row.a === null ? 'only in B' : 'only in A';
  if (isUnchanged(row)) return '±0.00 ms';
  const sign = row.diff > 0 ? '+' : row.diff < 0 ? '−' : '±';
  const percent = row.percent === null ? '' : ` (${row.percent > 0 ? '+' : ''}${row.percent} %)`;
  return `${sign}${formatMs(Math.abs(row.diff))}${percent}`;
}

/** Slower (more time, more calls) is worse, in red; faster is better, in green; no change stays plain. */
function diffClass(row: TimingDiff, counted: boolean): string {
  if (row.diff === null || row.diff === 0 || (!counted && isUnchanged(row))) return 'diff';
  return row.diff > 0 ? 'diff slower' : 'diff faster';
}

/** `+3 (+50 %)`: how many more (or fewer) `b` ran than `a`. */
export function formatCountDiff(row: TimingDiff): string {
  if (row.diff === null) return row.a === null ? 'only in B' : 'only in A';
  const sign = row.diff > 0 ? '+' : row.diff < 0 ? '−' : '±';
  const percent = row.percent === null ? '' : ` (${row.percent > 0 ? '+' : ''}${row.percent} %)`;
  return `${sign}${Math.abs(row.diff)}${percent}`;
}

function count(value: number | null): string {
  return value === null ? '–' : String(value);
}

/** Timing rows in ms; I/O rows say a count as a plain number. More of either is marked as slower. */
function renderRows(rows: readonly (TimingDiff | IoDiff)[]): SafeHtml[] {
  return rows.map((row) => {
    const counted = 'unit' in row && row.unit === 'count';
    const [a, b, diff] = counted ? [count(row.a), count(row.b), formatCountDiff(row)] : [ms(row.a), ms(row.b), formatTimingDiff(row)];
    // An I/O row carries its raw values, as the total carries its difference.
    const values = 'unit' in row ? html` data-a="${row.a ?? ''}" data-b="${row.b ?? ''}"` : '';
    return html`<tr data-name="${row.name}"${values}><td class="mono">${row.name}</td><td>${a}</td><td>${b}</td><td class="${diffClass(row, counted)}">${diff}</td></tr>\n`;
  });
}

function status(side: ComparedSide): string {
  return side.statusCode === 0 ? 'aborted' : `${side.statusCode} ${STATUS_TEXT[side.statusCode] ?? ''}`.trim();
}

function renderSides(comparison: ProfileComparison): SafeHtml {
  const { a, b } = comparison;
  const row = (label: string, left: SafeHtml | string, right: SafeHtml | string): SafeHtml => html`<tr><th>${label}</th><td>${left}</td><td>${right}</td></tr>\n`;
  const link = (side: ComparedSide): SafeHtml => html`<a class="mono" href="${profilePath(side.token)}">${side.token}</a>`;
  return html`<table class="compare-sides">
<thead><tr><th></th><th>A</th><th>B</th></tr></thead>
<tbody>
${row('Token', link(a), link(b))}${row('Status', status(a), status(b))}${row('Request', `${a.method} ${a.url}`, `${b.method} ${b.url}`)}${row('Route', a.route ?? '(none)', b.route ?? '(none)')}${row('Profiled on', formatTime(a.time).iso, formatTime(b.time).iso)}${row('Total', formatMs(a.duration), formatMs(b.duration))}</tbody>
</table>
<p class="total-diff" data-diff="${comparison.total.diff ?? ''}">B took <strong class="${diffClass(comparison.total, false)}">${formatTimingDiff(comparison.total)}</strong> against A. <a href="${comparePath(b.token, a.token)}">Swap A and B</a></p>`;
}

function renderTable(caption: string, rows: readonly (TimingDiff | IoDiff)[], empty: string): SafeHtml {
  if (rows.length === 0) return html`<h3>${caption}</h3>\n<p class="empty">${empty}</p>`;
  return html`<h3>${caption}</h3>
<table class="compare">
<thead><tr><th>Name</th><th>A</th><th>B</th><th>B − A</th></tr></thead>
<tbody>
${renderRows(rows)}</tbody>
</table>`;
}

function renderShapeList(name: 'added' | 'removed', shapes: readonly string[], none: string): SafeHtml {
  const caption = `${shapes.length} query ${shapes.length === 1 ? 'shape' : 'shapes'} ${name}`;
  if (shapes.length === 0) return html`<h4>${caption}</h4>\n<p class="empty">${none}</p>`;
  return html`<h4>${caption}</h4>
<ul class="shapes-${name}" data-count="${shapes.length}">
${shapes.map((shape) => html`<li><pre class="sql">${shape}</pre></li>\n`)}</ul>`;
}

/** The query shapes B ran that A did not, and those A ran that B did not: what a change to the code added or removed. */
function renderQueryShapes(changes: QueryShapeChanges | null): SafeHtml {
  if (changes === null) return html`<h3>Query shapes</h3>\n<p class="empty">One of the profiles holds no Database entry: their query shapes cannot be compared.</p>`;
  return html`<h3>Query shapes</h3>
${renderShapeList('added', changes.added, 'B ran no query shape that A did not.')}
${renderShapeList('removed', changes.removed, 'B ran every query shape that A ran.')}`;
}

/** Two profiles side by side: status, route, total, each state's time, the listeners that changed most, the application's I/O and the query shapes added and removed. */
export function renderComparePage(comparison: ProfileComparison, stats: ProfilerStats | null): string {
  return renderPanelLayout({
    sidebar: renderSidebarCounters(stats),
    content: html`<h2>Compare ${comparison.a.token} (A) with ${comparison.b.token} (B)</h2>
${renderSides(comparison)}
${renderTable('States and phases', comparison.states, 'Neither profile recorded its states.')}
${renderTable('Listeners whose time changed most', comparison.listeners, 'Neither profile recorded its listeners.')}
${renderTable("The application's I/O", comparison.io, 'Neither profile recorded its queries, HTTP calls or Redis commands.')}
${renderQueryShapes(comparison.queryShapes)}`,
  });
}
