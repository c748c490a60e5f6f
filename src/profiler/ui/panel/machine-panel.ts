import { html } from '../../../view/html';
import { machineOf } from '../../collect/collectors/machine-view';
import { TIMELINE_COLLECTOR, type TimelineCollectorData } from '../../collect/collectors/timeline-collector';
import { type PanelDefinition } from './panel-definition';
import { formatMs } from './panel-format';
import { profilePath } from '../../profiler-paths';

/** States the machine enters only when something failed: drawn as such on the path. */
const ERROR_STATES = /exception|error/;

/**
 * Machine: the request's path through its XState actor's states, in order, each with its
 * duration: the kernel phases and the machine's own states around them (received, controller,
 * error sub-request), read from the timeline's entry. A path, not a chart or a table: the
 * Events panel draws the phases over time and lists their listeners, the Performance panel
 * every span.
 */
export const machinePanel: PanelDefinition<TimelineCollectorData> = {
  name: 'machine',
  label: 'State machine',
  collector: TIMELINE_COLLECTOR,
  render: ({ profile }) => {
    const states = machineOf(profile)?.states ?? [];
    return html`<h2>State machine</h2>
<p>The states of this ${profile.type === 'sub' ? 'sub-request' : 'request'}'s actor, in order${profile.aborted ? html` — <strong>the client disconnected before the whole response was sent</strong>` : ''}.
Drawn over time with every listener and call in <a href="${profilePath(profile.token, 'performance')}">Performance</a>.</p>
${states.length === 0 ? html`<p class="empty">Nothing was recorded.</p>` : html`<ol class="state-path" aria-label="The states entered, in order">
${states.map(
  (state) => html`<li class="${ERROR_STATES.test(state.name) ? 'state error' : 'state'}" data-state="${state.name}" title="Entered at ${formatMs(state.start)}"><span class="mono name">${state.name}</span> <span class="time">${formatMs(state.duration)}</span></li>\n`,
)}</ol>`}`;
  },
};
