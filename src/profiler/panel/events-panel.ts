import { type ListenerRecord } from '../../kernel/trace';
import { html, type SafeHtml } from '../../view/html';
import { type PanelDefinition } from './panel-definition';
import { formatMs } from './panel-format';
import { renderTimeline, timelineTotal } from './timeline';

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
 * Events: the kernel phases the request went through as a timeline, then each phase's
 * listeners in the order they ran, with priority and duration.
 */
export const eventsPanel: PanelDefinition = {
  name: 'events',
  label: 'Events',
  render: ({ profile }) => {
    const total = timelineTotal(profile.duration, profile.phases);
    const names = [...new Set(profile.phases.map((phase) => phase.name))];
    return html`<h2>Events</h2>
<p>Kernel phases, relative to the request's ${formatMs(profile.duration)}.</p>
${renderTimeline(profile.phases, total)}
${names.map(
  (name) => html`<h3 class="mono" id="phase-${name}">${name}</h3>
${renderListeners(profile.listeners.filter((listener) => listener.phase === name))}\n`,
)}`;
  },
};
