import { type PhaseRecord } from '../../../kernel/trace';
import { html, type SafeHtml } from '../../../view/html';
import { formatMs } from './panel-format';

/** The span a timeline covers: the request's duration, or further if a record ends later (kernel.terminate). */
export function timelineTotal(duration: number, records: readonly PhaseRecord[]): number {
  return Math.max(duration, ...records.map((record) => record.start + record.duration), 0.001);
}

function percent(value: number, total: number): string {
  return Math.min(100, Math.max(0, (value / total) * 100)).toFixed(2);
}

/**
 * Bars positioned by each record's start and duration relative to `total`, so the phases of a
 * request read as a waterfall. Plain CSS: the widths are numbers computed here.
 */
export function renderTimeline(records: readonly PhaseRecord[], total: number, barClass = 'bar'): SafeHtml {
  if (records.length === 0) return html`<p class="empty">Nothing was recorded.</p>`;
  return html`<div class="timeline">
${records.map(
  (record) => html`<div class="row" data-name="${record.name}"><span class="label">${record.name}</span>
<span class="track"><span class="${barClass}" style="left:${percent(record.start, total)}%;width:${percent(record.duration, total)}%" title="${record.name}: ${formatMs(record.duration)} from ${formatMs(record.start)}"></span></span>
<span class="time">${formatMs(record.duration)}</span></div>\n`,
)}</div>`;
}
