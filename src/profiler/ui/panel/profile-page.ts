import { collectorData, type Profile } from '../../profile';
import { type ProfilerStats } from '../../profiler';
import { html, type SafeHtml } from '../../../view/html';
import { type EditorLink, NO_EDITOR_LINK } from './editor-link';
import { type ChildProfile } from './load-profile';
import { type PanelDefinition } from './panel-definition';
import { NO_SOURCE, type SourceReader } from '../../../view/read-source-excerpts';
import { renderPanelLayout } from './panel-layout';
import { renderProfileSummary } from './profile-summary';
import { renderSidebarCounters } from './writer-counters';
import { comparePath, profilePath, searchPath } from '../../profiler-paths';

/** What the profile page shows: a profile, its children, the panels and the one chosen. */
export interface ProfilePageContent {
  readonly profile: Profile;
  readonly children: readonly ChildProfile[];
  readonly panels: readonly PanelDefinition[];
  readonly panel: PanelDefinition;
  /** The previous profile of the same route, to compare with, if any. */
  readonly previous?: string | null;
  /** That profile itself, read for a panel that sets `readsPrevious`. */
  readonly previousProfile?: Profile;
  /** The page's query, which the panel may filter by. */
  readonly query?: URLSearchParams;
  readonly editorLink?: EditorLink;
  /** The source lines the panel asked for (`sources`), read before rendering. */
  readonly source?: SourceReader;
}

function renderMenu(content: ProfilePageContent): SafeHtml {
  const { profile, panels } = content;
  const token = encodeURIComponent(profile.token);
  return html`<h2>Panels</h2>
<ul class="menu">
${panels.map((panel) => {
  const data = collectorData(profile, panel.collector);
  const badge = data === undefined ? null : (panel.badge?.(data, profile) ?? null);
  return html`<li><a href="${profilePath(token, panel.name)}"${panel === content.panel ? html` aria-current="page"` : ''} data-panel="${panel.name}"><span>${panel.label}</span>${
    badge === null ? '' : html`<span class="${badge.isError ? 'badge error' : badge.isWarning === true ? 'badge warning' : 'badge'}">${badge.count}</span>`
  }</a></li>\n`;
})}</ul>`;
}

/** The chosen panel, or "no data" when the profile holds nothing of its collector. */
function renderPanel(content: ProfilePageContent): SafeHtml {
  const { profile, children, panel } = content;
  const data = collectorData(profile, panel.collector);
  if (data === undefined) {
    return html`<h2>${panel.label}</h2>
<p class="empty">No data: this profile holds nothing from the "${panel.collector}" collector (it was not registered, or it failed, when the request was profiled).</p>`;
  }
  const { query = new URLSearchParams(), editorLink = NO_EDITOR_LINK, source = NO_SOURCE, previousProfile } = content;
  return panel.render({ profile, data, children, query, editorLink, source, ...(previousProfile === undefined ? {} : { previous: previousProfile }) });
}

/** "Compare with…": the previous profile of the same route, or the search to pick one. */
function renderCompareLink(content: ProfilePageContent): SafeHtml {
  const { profile, previous } = content;
  if (profile.parent !== null) return html``;
  const pick = html`<a href="${searchPath('url', profile.url)}">pick one</a>`;
  if (previous === undefined || previous === null) return html`<p class="compare-with">Compare with… no earlier profile of this route; ${pick}, then open /_profiler/${profile.token}/compare/&lt;token&gt;.</p>`;
  return html`<p class="compare-with">Compare with… <a rel="compare" href="${comparePath(previous, profile.token)}">the previous request of this route (${previous})</a></p>`;
}

/** The profile page: summary, panel menu, writer counters and the chosen panel. */
export function renderProfilePage(content: ProfilePageContent, stats: ProfilerStats | null): string {
  return renderPanelLayout({
    sidebar: html`${renderMenu(content)}
${renderSidebarCounters(stats)}`,
    content: html`${renderProfileSummary(content.profile, content.children)}
${renderCompareLink(content)}
<section class="panel" id="panel-${content.panel.name}">
${renderPanel(content)}
</section>`,
  });
}
