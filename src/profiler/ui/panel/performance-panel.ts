import { SPAN_CATEGORIES } from '../../../kernel/stopwatch';
import { html, type SafeHtml } from '../../../view/html';
import { accountTimeline, type TimelineRow } from '../account-timeline';
import { TIMELINE_COLLECTOR, type TimelineCollectorData } from '../../collect/collectors/timeline-collector';
import { profilePath } from '../../profiler-paths';
import { type PanelDefinition } from './panel-definition';
import { formatMs } from './panel-format';

function percent(value: number, total: number): string {
  return Math.min(100, Math.max(0, (value / total) * 100)).toFixed(2);
}

function exact(ms: number): string {
  return `${ms.toFixed(3)} ms`;
}

function renderRow(row: TimelineRow, total: number): SafeHtml {
  const { span, depth, self } = row;
  const title = `${span.name} (${span.category}): ${exact(span.duration)} from ${exact(span.start)}, self ${exact(self)}`;
  const label = span.token === undefined ? span.name : html`${span.name} <a href="${profilePath(span.token)}">${span.token}</a>`;
  return html`<div class="row cat-${span.category}" data-category="${span.category}" data-depth="${depth}"><span class="label" style="padding-left:${depth * 14}px" title="${span.name}">${label}</span>
<span class="track"><span class="bar cat-${span.category}" style="left:${percent(span.start, total)}%;width:${percent(span.duration, total)}%" title="${title}"></span></span>
<span class="time" title="${title}">${formatMs(span.duration)}</span><span class="time self">${formatMs(self)}</span></div>\n`;
}

/**
 * Performance: every span of the request as a waterfall (Symfony's Performance panel, Clockwork's
 * timeline) — the machine's states, the listeners and the controller in them, the session's
 * Redis work, the application's stopwatch spans and the error sub-request — with each one's self
 * time, and what no span accounts for.
 */
export const performancePanel: PanelDefinition<TimelineCollectorData> = {
  name: 'performance',
  label: 'Performance',
  collector: TIMELINE_COLLECTOR,
  render: ({ data }) => {
    const { rows, unaccounted, total } = accountTimeline(data);
    const axis = Math.max(total, ...rows.map(({ span }) => span.start + span.duration), 0.001);
    const share = total > 0 ? ` (${((unaccounted / total) * 100).toFixed(1)} % of the total)` : '';
    return html`<h2>Performance</h2>
<p class="totals"><strong>Total: ${formatMs(total)}</strong> · <span class="unaccounted">unaccounted: ${formatMs(unaccounted)}${share}</span> — time no listener, controller or other span covers (the state machine's own work).${
      data.droppedSpans > 0 ? html` <strong>${data.droppedSpans} application spans were not recorded</strong> (the trace was full).` : ''
    }</p>
<p class="legend">${SPAN_CATEGORIES.map((category) => html`<span class="swatch cat-${category}"></span>${category} `)}</p>
${rows.length === 0 ? html`<p class="empty">Nothing was recorded.</p>` : html`<div class="timeline waterfall">
<div class="row head"><span class="label">Span</span><span class="track"></span><span class="time">Duration</span><span class="time self">Self</span></div>
${rows.map((row) => renderRow(row, axis))}</div>`}`;
  },
};
