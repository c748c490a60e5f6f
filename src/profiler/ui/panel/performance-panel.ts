import { html, type SafeHtml } from '../../../view/html';
import { accountTimeline, type TimelineRow } from '../account-timeline';
import { TIMELINE_COLLECTOR, type TimelineCollectorData, type TimelineSpan } from '../../collect/collectors/timeline-collector';
import { REQUEST_COLLECTOR, type RequestCollectorData } from '../../collect/collectors/request-collector';
import { collectorData, type Profile } from '../../profile';
import { profilePath } from '../../profiler-paths';
import { type PanelDefinition } from './panel-definition';
import { formatMs } from './panel-format';
import { CATEGORY_LABELS, spanDetails } from './span-details';
import { PROFILER_LISTENER_NAMES } from '../profiler-listener-names';

/** Spans shorter than this show as 0.00 ms: folded away with the profiler's own listeners. */
const EMPTY_MS = 0.005;

/** Whether a row is folded by itself: a listener of the profiler's, or a span too short to show a time. */
function isNoise({ span }: TimelineRow): boolean {
  if (span.token !== undefined) return false;
  if (span.category === 'listener' && PROFILER_LISTENER_NAMES.has(span.name.split(/[\s:(]/)[0] ?? '')) return true;
  return span.duration < EMPTY_MS;
}

/** The rows shown at first: a folded row takes the rows under it along. */
function unfoldedRows(rows: readonly TimelineRow[]): TimelineRow[] {
  const shown: TimelineRow[] = [];
  let foldedDepth = Infinity;
  for (const row of rows) {
    if (row.depth > foldedDepth) continue;
    foldedDepth = Infinity;
    if (isNoise(row)) foldedDepth = row.depth;
    else shown.push(row);
  }
  return shown;
}

function renderWaterfall(rows: readonly TimelineRow[], axis: number, details: ReadonlyMap<TimelineSpan, string>): SafeHtml {
  return html`<div class="timeline waterfall">
<div class="row head"><span class="label">Span</span><span class="track"></span><span class="time">Duration</span><span class="time self">Self</span></div>
${rows.map((row) => renderRow(row, axis, details.get(row.span)))}</div>`;
}

function percent(value: number, total: number): string {
  return Math.min(100, Math.max(0, (value / total) * 100)).toFixed(2);
}

function exact(ms: number): string {
  return `${ms.toFixed(3)} ms`;
}

function renderRow(row: TimelineRow, total: number, detail: string | undefined): SafeHtml {
  const { span, depth, self } = row;
  const title = `${span.name} (${CATEGORY_LABELS[span.category] ?? span.category}${detail === undefined ? '' : `; ${detail}`}): ${exact(span.duration)} from ${exact(span.start)}, self ${exact(self)}`;
  const label = span.token === undefined ? span.name : html`${span.name} <a href="${profilePath(span.token)}">${span.token}</a>`;
  return html`<div class="row cat-${span.category}" data-category="${span.category}" data-depth="${depth}"><span class="label" style="padding-left:${depth * 14}px" title="${detail === undefined ? span.name : `${span.name} — ${detail}`}">${label}</span>
<span class="track"><span class="bar cat-${span.category}" style="left:${percent(span.start, total)}%;width:${percent(span.duration, total)}%" title="${title}"></span></span>
<span class="time" title="${title}">${formatMs(span.duration)}</span><span class="time self">${formatMs(self)}</span></div>\n`;
}

/** For a streamed response, when its first and last bytes went out (the `streaming` state spans the time between). */
function renderStreamedBody(profile: Profile): SafeHtml | '' {
  const body = collectorData<RequestCollectorData>(profile, REQUEST_COLLECTOR)?.response.body;
  if (body === undefined || !body.streamed) return '';
  const first = body.firstByteMs === null ? 'no byte went out' : html`first byte after <span class="first-byte">${formatMs(body.firstByteMs)}</span>`;
  return html`<p class="streamed-body">The body was streamed: ${first}, last byte after <span class="last-byte">${formatMs(body.lastByteMs)}</span>, ${body.bytes} bytes${
    body.failed ? ' (its source failed)' : body.aborted ? ' (the client went away)' : ''
  }.</p>`;
}

/**
 * Performance: every span of the request as a waterfall (Symfony's Performance panel, Clockwork's
 * timeline) — the machine's states, the listeners and the controller in them, the session's
 * Redis work, the application's stopwatch spans and the error sub-request — with each one's self
 * time, and what no span accounts for. The profiler's own listeners and the spans that took no
 * measurable time are folded into a <details> holding the whole waterfall (no script needed).
 */
export const performancePanel: PanelDefinition<TimelineCollectorData> = {
  name: 'performance',
  label: 'Performance',
  collector: TIMELINE_COLLECTOR,
  render: ({ data, profile }) => {
    const { rows, unaccounted, total } = accountTimeline(data);
    const axis = Math.max(total, ...rows.map(({ span }) => span.start + span.duration), 0.001);
    const share = total > 0 ? ` (${((unaccounted / total) * 100).toFixed(1)} % of the total)` : '';
    const shown = unfoldedRows(rows);
    const folded = rows.length - shown.length;
    const details = spanDetails(profile, data.spans);
    const categories = [...new Set(rows.map(({ span }) => span.category))];
    return html`<h2>Performance</h2>
<p class="totals"><strong>Total: <span class="total">${formatMs(total)}</span></strong> from the request's start until its profile was collected, kernel.terminate included;
the response was sent after <span class="response-time">${formatMs(profile.duration)}</span> (the Duration above) · <span class="unaccounted">unaccounted: ${formatMs(unaccounted)}${share}</span> — time no listener, controller or other span covers (the state machine's own work).${
      data.droppedSpans > 0 ? html` <strong>${data.droppedSpans} application spans were not recorded</strong> (the trace was full).` : ''
    }</p>
${renderStreamedBody(profile)}
<p class="legend">${categories.map((category) => html`<span class="swatch cat-${category}"></span>${CATEGORY_LABELS[category] ?? category} `)}</p>
${rows.length === 0 ? html`<p class="empty">Nothing was recorded.</p>` : renderWaterfall(shown, axis, details)}
${
  folded === 0
    ? ''
    : html`<details class="all-spans"><summary>All ${rows.length} spans: ${folded} more, the profiler's own listeners and spans under 0.01 ms</summary>
${renderWaterfall(rows, axis, details)}</details>`
}`;
  },
};
