import { html } from '../../../view/html';
import { machineOf } from '../../collect/collectors/machine-view';
import { TIMELINE_COLLECTOR, type TimelineCollectorData } from '../../collect/collectors/timeline-collector';
import { type PanelDefinition } from './panel-definition';
import { formatMs } from './panel-format';
import { profilePath } from '../../profiler-paths';

/**
 * Machine: every state the request's XState actor entered, in order, with timing: the kernel
 * phases and the machine's own states around them (received, controller, error sub-request),
 * read from the timeline's entry. A table, not a chart: the Events panel draws the phases and
 * the Performance panel every span, and the states are those phases again.
 */
export const machinePanel: PanelDefinition<TimelineCollectorData> = {
  name: 'machine',
  label: 'State machine',
  collector: TIMELINE_COLLECTOR,
  render: ({ profile }) => {
    const states = machineOf(profile)?.states ?? [];
    return html`<h2>State machine</h2>
<p>The states of this ${profile.type === 'sub' ? 'sub-request' : 'request'}'s actor, in order${profile.aborted ? html` — <strong>the client disconnected before the response was sent</strong>` : ''}.
Drawn over time with every listener and call in <a href="${profilePath(profile.token, 'performance')}">Performance</a>.</p>
${states.length === 0 ? html`<p class="empty">Nothing was recorded.</p>` : ''}
<table class="states">
<thead><tr><th>#</th><th>State</th><th>Entered at</th><th>Duration</th></tr></thead>
<tbody>
${states.map(
  (state, index) => html`<tr><td>${index + 1}</td><td class="mono">${state.name}</td><td>${formatMs(state.start)}</td><td>${formatMs(state.duration)}</td></tr>\n`,
)}</tbody>
</table>`;
  },
};
