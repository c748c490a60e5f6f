import { html, type SafeHtml } from '../../../view/html';
import { isRequestOrigin, originFunction, requestOriginText, type StoredCall, type StoredOrigin } from '../../app-io/analyze-calls';
import { type CallTotals } from '../../collect/collectors/app-io-collectors';
import { profilePath } from '../../profiler-paths';
import { renderSourcePosition, type EditorLink } from './editor-link';
import { formatMs } from './panel-format';

/** One choice of a panel's filter: its `?filter=` value, label and how many entries it keeps. */
export interface CallFilter {
  readonly name: string;
  readonly label: string;
  readonly count: number;
}

/** Every entry: what a missing or unknown `?filter=` means. */
export const ALL = 'all';

/** The filters every I/O panel has, in link order, with their labels. */
const FILTER_LABELS = [
  ['n_plus_one', 'N+1'],
  ['duplicates', 'Duplicates'],
  ['slow', 'Slow'],
  ['errors', 'Errors'],
] as const;

/** Whether the entry at an index is kept by each filter. */
export type FilterRules = Readonly<Record<(typeof FILTER_LABELS)[number][0], (index: number) => boolean>>;

/** `all` and the standard filters for `count` entries, each with how many it keeps. */
export function callFilters(count: number, rules: FilterRules): CallFilter[] {
  const indexes = Array.from({ length: count }, (_, index) => index);
  return [{ name: ALL, label: 'All', count }, ...FILTER_LABELS.map(([name, label]) => ({ name, label, count: indexes.filter(rules[name]).length }))];
}

/** The indexes of the entries `filter` keeps (all of them for `all` or a filter not among the rules). */
export function filteredIndexes(count: number, rules: FilterRules, filter: string): number[] {
  const rule = FILTER_LABELS.find(([name]) => name === filter)?.[0];
  const indexes = Array.from({ length: count }, (_, index) => index);
  return rule === undefined ? indexes : indexes.filter(rules[rule]);
}

/**
 * The filter the page asked for among `filters`, else `all`: an unknown value shows
 * everything rather than an error, since the links are the only way to set it.
 */
export function chosenFilter(query: URLSearchParams, filters: readonly CallFilter[]): string {
  const wanted = query.get('filter');
  return filters.some((filter) => filter.name === wanted) && wanted !== null ? wanted : ALL;
}

/**
 * The totals line every I/O panel starts with: how many, how long, errors, slow (with the
 * threshold), and those past PROFILER_MAX_ENTRIES that were counted but not kept.
 */
/** `nouns`: the singular and the plural (`['query', 'queries']`). */
export function renderCallTotals(totals: CallTotals, nouns: readonly [string, string], extra: SafeHtml = html``): SafeHtml {
  return html`<p class="totals call-totals"><strong class="count">${totals.count} ${totals.count === 1 ? nouns[0] : nouns[1]}</strong> in <strong class="time">${formatMs(totals.time)}</strong> ·
<span class="${totals.errors > 0 ? 'errors status-error-text' : 'errors'}">${totals.errors} ${totals.errors === 1 ? 'error' : 'errors'}</span> ·
<span class="${totals.slow > 0 ? 'slow status-error-text' : 'slow'}">${totals.slow} slow</span> (${totals.slowMs} ms or more)${extra}${
    totals.dropped > 0 ? html` · <strong class="dropped">${totals.dropped} not kept</strong> (past PROFILER_MAX_ENTRIES, counted only)` : ''
  }</p>`;
}

/** The filter as links (`?panel=db&filter=slow`): the server filters, so the page needs no script. */
export function renderFilterLinks(token: string, panel: string, current: string, filters: readonly CallFilter[]): SafeHtml {
  return html`<nav class="call-filters" aria-label="Filter">${filters.map((filter) => {
    const href = filter.name === ALL ? profilePath(token, panel) : `${profilePath(token, panel)}&filter=${encodeURIComponent(filter.name)}`;
    return html`<a href="${href}" data-filter="${filter.name}"${filter.name === current ? html` aria-current="true"` : ''}>${filter.label} <span class="badge">${filter.count}</span></a> `;
  })}</nav>`;
}

/** A call's duration, or "running" when the profile was collected before it ended. */
export function renderDuration(duration: number | null): SafeHtml {
  return duration === null ? html`<span class="running">running</span>` : html`${formatMs(duration)}`;
}

/** Why a call shows its request's position, on hover. */
const REQUEST_ORIGIN_HELP = "No frame of the application's was on the stack: a library's own statement, or a query it sent later for the application (an awaited thenable runs from a microtask).";

/**
 * Where the application made the call, linked to the editor when PROFILER_IDE is set; for a call
 * with no frame of the application's, the library that sent it and the request's controller.
 */
export function renderOrigin(origin: StoredOrigin | null, editorLink: EditorLink): SafeHtml {
  if (origin === null) return html`<span class="empty">—</span>`;
  if (isRequestOrigin(origin)) return html`<span class="request-origin help" title="${REQUEST_ORIGIN_HELP}">${requestOriginText(origin)}</span>`;
  const fn = originFunction(origin);
  return html`${renderSourcePosition(editorLink, origin.file, origin.line)}${fn === '' ? '' : html`<br><span class="fn">${fn}</span>`}`;
}

/**
 * The call's own stack under its origin, folded (a `<details>`: no script), innermost first, each
 * frame linked as the origin is; nothing for a call whose stack only repeats its origin.
 */
export function renderCallStack(call: StoredCall, editorLink: EditorLink): SafeHtml {
  const callers = call.stack?.slice(1) ?? [];
  if (callers.length === 0) return html``;
  return html`<details class="call-stack"><summary>Called from ${callers.length} more frame${callers.length === 1 ? '' : 's'}</summary><ol class="stack-frames">${callers.map((frame) => {
    const fn = originFunction(frame);
    return html`<li>${renderSourcePosition(editorLink, frame.file, frame.line)}${fn === '' ? '' : html` <span class="fn">${fn}</span>`}</li>`;
  })}</ol></details>`;
}

/** Where the call was made (see renderOrigin) with its stack folded under it (see renderCallStack). */
export function renderCallOrigin(call: StoredCall, editorLink: EditorLink): SafeHtml {
  return html`${renderOrigin(call.origin, editorLink)}${renderCallStack(call, editorLink)}`;
}

/** The flags of one entry as small labels (N+1, duplicate, slow, error). */
export function renderFlags(flags: readonly (readonly [boolean, string])[]): SafeHtml {
  return html`${flags.filter(([on]) => on).map(([, name]) => html` <span class="flag flag-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}">${name}</span>`)}`;
}

/** The `data` rows of a table for `indexes`, or a line that says the filter kept nothing. */
export function renderRowsOrEmpty(indexes: readonly number[], columns: number, row: (index: number) => SafeHtml): SafeHtml {
  if (indexes.length === 0) return html`<tr><td colspan="${columns}" class="empty">Nothing matches this filter.</td></tr>`;
  return html`${indexes.map(row)}`;
}
