import { type LogRecord } from '../../../kernel/trace';
import { LOGS_COLLECTOR, type LogsCollectorData } from '../../collect/collectors/logs-collector';
import { html, type SafeHtml } from '../../../view/html';
import { type PanelDefinition } from './panel-definition';
import { formatMs, formatValue } from './panel-format';

const PROBLEM_LEVELS: ReadonlySet<string> = new Set(['warning', 'error', 'critical']);

function renderContext(context: LogRecord['context']): SafeHtml {
  if (Object.keys(context).length === 0) return html``;
  const text = formatValue(context);
  // An error context holds a whole stack trace: folded so the messages stay readable.
  return text.length > 400
    ? html`<details><summary>Context</summary><pre>${text}</pre></details>`
    : html`<pre class="context">${text}</pre>`;
}

/** Logs: the entries the request's listeners and controller wrote, with level, time, message and context. */
export const logsPanel: PanelDefinition<LogsCollectorData> = {
  name: 'logs',
  label: 'Logs',
  collector: LOGS_COLLECTOR,
  badge: ({ records }) => {
    if (records.length === 0) return null;
    return { count: records.length, isError: records.some((log) => PROBLEM_LEVELS.has(log.level)) };
  },
  render: ({ data: { records } }) => {
    if (records.length === 0) return html`<h2>Logs</h2><p class="empty">No log messages available.</p>`;
    return html`<h2>Logs</h2>
<table class="logs">
<thead><tr><th>Level</th><th>Time</th><th>Message</th></tr></thead>
<tbody>
${records.map(
  (log) => html`<tr><td class="level-${log.level}">${log.level}</td><td>${formatMs(log.at)}</td><td>${log.message}${renderContext(log.context)}</td></tr>\n`,
)}</tbody>
</table>`;
  },
};
