import { type ListenerRecord } from '../../../kernel/trace';
import { eventsOf } from '../../collect/collectors/events-view';
import { TIMELINE_COLLECTOR, type TimelineCollectorData } from '../../collect/collectors/timeline-collector';
import { html, type SafeHtml } from '../../../view/html';
import { type PanelDefinition } from './panel-definition';
import { formatMs } from './panel-format';
import { renderTimeline, timelineTotal } from './timeline';
import { requestPhases } from '../request-phases';

function renderListeners(listeners: readonly ListenerRecord[]): SafeHtml {
  if (listeners.length === 0) return html`<p class="empty">No listener ran.</p>`;
  return html`<table>
<thead><tr><th>Listener</th><th>Priority</th><th>Started at</th><th>Duration</th></tr></thead>
<tbody>
${listeners.map(
  (listener) => html`<tr><td class="mono">${listener.name}</td><td>${listener.priority}</td><td>${formatMs(listener.start)}</td><td>${formatMs(listener.duration)}</td></tr>\n`,
)}</tbody>
</table>`;
}

/**
 * Events: the kernel phases the request went through, and its controller, as a timeline, then each phase's
 * listeners in the order they ran, with priority and duration (read from the timeline's entry).
 */
export const eventsPanel: PanelDefinition<TimelineCollectorData> = {
  name: 'events',
  label: 'Events',
  collector: TIMELINE_COLLECTOR,
  render: ({ profile }) => {
    const data = eventsOf(profile) ?? { phases: [], listeners: [] };
    const phases = requestPhases(profile) ?? data.phases;
    const total = timelineTotal(profile.duration, phases);
    const names = [...new Set(data.phases.map((phase) => phase.name))];
    return html`<h2>Events</h2>
<p>Kernel phases and the controller, relative to the request's ${formatMs(profile.duration)}.</p>
${renderTimeline(phases, total)}
${names.map(
  (name) => html`<h3 class="mono" id="phase-${name}">${name}</h3>
${renderListeners(data.listeners.filter((listener) => listener.phase === name))}\n`,
)}`;
  },
};
