import { type LogRecord } from '../../../kernel/trace';
import { LOGS_COLLECTOR, type LogsCollectorData } from '../../collect/collectors/logs-collector';
import { html, type SafeHtml } from '../../../view/html';
import { type PanelDefinition } from './panel-definition';
import { formatMs, formatValue } from './panel-format';
import { profilePath } from '../../profiler-paths';

/** The levels in order of severity, for the filter links (a level no record has gets no link). */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Links that filter by level on the server (`?panel=logs&level=error`): the page runs no script. */
function renderLevelLinks(token: string, records: readonly LogRecord[], current: string): SafeHtml {
  const present = [...new Set(records.map((log) => log.level))].sort((a, b) => LEVELS.indexOf(a) - LEVELS.indexOf(b));
  const link = (level: string, label: string, count: number): SafeHtml => {
    const href = level === '' ? profilePath(token, 'logs') : `${profilePath(token, 'logs')}&level=${encodeURIComponent(level)}`;
    return html`<a href="${href}" data-level="${level}"${level === current ? html` aria-current="true"` : ''}>${label} <span class="badge">${count}</span></a> `;
  };
  return html`<nav class="call-filters" aria-label="Level">${link('', 'All', records.length)}${present.map((level) => link(level, level, records.filter((log) => log.level === level).length))}</nav>`;
}

const PROBLEM_LEVELS: ReadonlySet<string> = new Set(['warning', 'error', 'critical']);

function renderContext(context: LogRecord['context']): SafeHtml {
  if (Object.keys(context).length === 0) return html``;
  const text = formatValue(context);
  // An error context holds a whole stack trace: folded so the messages stay readable.
  return text.length > 400
    ? html`<details><summary>Context</summary><pre>${text}</pre></details>`
    : html`<pre class="context">${text}</pre>`;
}

/**
 * Logs: the entries the request's listeners and controller wrote, with level, time, message and
 * context; `?level=` keeps one level.
 */
export const logsPanel: PanelDefinition<LogsCollectorData> = {
  name: 'logs',
  label: 'Logs',
  collector: LOGS_COLLECTOR,
  badge: ({ records }) => {
    if (records.length === 0) return null;
    return { count: records.length, isError: records.some((log) => PROBLEM_LEVELS.has(log.level)) };
  },
  render: ({ data: { records }, profile, query }) => {
    if (records.length === 0) return html`<h2>Logs</h2><p class="empty">No log messages available.</p>`;
    const level = (query.get('level') ?? '').trim().toLowerCase();
    const shown = level === '' ? records : records.filter((log) => log.level === level);
    return html`<h2>Logs</h2>
${renderLevelLinks(profile.token, records, level)}
${shown.length === 0 ? html`<p class="empty">No log message of level "${level}".</p>` : html`<table class="logs">
<thead><tr><th>Level</th><th>Time</th><th>Message</th></tr></thead>
<tbody>
${shown.map(
  (log) => html`<tr><td class="level-${log.level}">${log.level}</td><td>${formatMs(log.at)}</td><td>${log.message}${renderContext(log.context)}</td></tr>\n`,
)}</tbody>
</table>`}`;
  },
};
