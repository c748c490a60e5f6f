import { type ProfilerStats } from '../profiler';
import { html, type SafeHtml } from '../../view/html';
import { type PanelContext, type PanelDefinition } from './panel-definition';
import { renderPanelLayout } from './panel-layout';
import { PANELS } from './panel-registry';
import { renderProfileSummary } from './profile-summary';
import { renderWriterCounters } from './writer-counters';

function renderMenu(context: PanelContext, current: PanelDefinition): SafeHtml {
  const token = encodeURIComponent(context.profile.token);
  return html`<h2>Panels</h2>
<ul class="menu">
${PANELS.map((panel) => {
  const badge = panel.badge?.(context.profile) ?? null;
  return html`<li><a href="/_profiler/${token}?panel=${panel.name}"${panel === current ? html` aria-current="page"` : ''} data-panel="${panel.name}"><span>${panel.label}</span>${
    badge === null ? '' : html`<span class="${badge.isError ? 'badge error' : 'badge'}">${badge.count}</span>`
  }</a></li>\n`;
})}</ul>`;
}

/** The profile page: summary, panel menu, writer counters and the chosen panel. */
export function renderProfilePage(context: PanelContext, panel: PanelDefinition, stats: ProfilerStats): string {
  return renderPanelLayout({
    sidebar: html`${renderMenu(context, panel)}
<h2>Profiler</h2>
${renderWriterCounters(stats)}`,
    content: html`${renderProfileSummary(context.profile, context.children)}
<section class="panel" id="panel-${panel.name}">
${panel.render(context)}
</section>`,
  });
}
