import { htmlDocumentHead } from '../../../view/html-document-head';
import { html, type SafeHtml } from '../../../view/html';
import { PANEL_STYLE } from './panel-style';
import { ProfilerPaths } from '../../profiler-paths';

export interface PanelLayoutOptions {
  /** The main column. */
  readonly content: SafeHtml;
  /** Extra sidebar sections (the panel menu, the writer counters), below the navigation. */
  readonly sidebar?: SafeHtml;
}

/**
 * The page shell of every profiler page: title `Loupe Profiler`, the inline stylesheet and the
 * navigation (search, latest, status). No script but the search page's live list: everything
 * can be read without one.
 */
export function renderPanelLayout(options: PanelLayoutOptions): string {
  return html`${htmlDocumentHead({ title: 'Loupe Profiler', style: PANEL_STYLE })}
<body>
<header class="header"><h1>Loupe Profiler</h1>
<nav><a href="${ProfilerPaths.HOME}">Search profiles</a> · <a href="${ProfilerPaths.LATEST}">Latest</a> · <a href="${ProfilerPaths.STATUS}">Status</a></nav>
</header>
<div class="layout">
${options.sidebar === undefined ? '' : html`<aside class="sidebar">${options.sidebar}</aside>`}
<main class="content">
${options.content}
</main>
</div>
</body>
</html>
`.toString();
}
