import { html, type SafeHtml } from '../../../view/html';
import { slowCalls } from '../../app-io/analyze-calls';
import { analyzeRepeats, type RepeatedCalls } from '../../app-io/analyze-repeats';
import { isFailedHttpCall, isWarnedHttpCall } from '../../app-io/http-call-outcome';
import { httpCallShape } from '../../app-io/http-call-shape';
import { HTTP_CLIENT_COLLECTOR, type HttpClientCollectorData, type StoredHttpCall } from '../../collect/collectors/app-io-collectors';
import { callFilters, chosenFilter, filteredIndexes, renderCallTotals, renderDuration, renderFilterLinks, renderFlags, renderCallOrigin, renderRowsOrEmpty, type FilterRules } from './call-panel-parts';
import { curlCommand } from './curl-command';
import { renderKeyValueTable } from './key-value-table';
import { type PanelContext, type PanelDefinition } from './panel-definition';
import { formatMs } from './panel-format';

/** A loop calls one endpoint for different items: in its path (`/item/1`) or its query (`?id=1`). */
function shapeOf(call: StoredHttpCall): string {
  return httpCallShape(call.method, call.url);
}

/** A body's size as captured, else as its Content-Length header said; `null` when neither is known. */
function bodySize(bytes: number | null, headers: Readonly<Record<string, string>>): number | null {
  if (bytes !== null) return bytes;
  const length = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-length')?.[1];
  return length !== undefined && /^\d+$/.test(length) ? Number(length) : null;
}

/** ` · sent 12 B · received 1.2 KiB`, each part only when its size is known: an unknown size is not shown as `?`. */
function sizes(call: StoredHttpCall): string {
  const format = (bytes: number): string => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`);
  const sent = bodySize(call.requestSize, call.requestHeaders);
  const received = bodySize(call.responseSize, call.responseHeaders);
  return `${sent === null ? '' : ` · sent ${format(sent)}`}${received === null ? '' : ` · received ${format(received)}`}`;
}

function renderCall(context: PanelContext<HttpClientCollectorData>, repeats: RepeatedCalls, slow: ReadonlySet<number>, index: number): SafeHtml {
  const call = context.data.calls[index];
  if (call === undefined) return html``;
  const failed = isFailedHttpCall(call);
  const warned = isWarnedHttpCall(call);
  const statusClass = failed ? 'status status-error-text' : warned ? 'status status-warning-text' : 'status';
  return html`<tr class="http-call" data-index="${index}"><td>${index + 1}</td><td>${formatMs(call.start)}</td><td>${renderDuration(call.duration)}</td>
<td><span class="method">${call.method}</span> <span class="url mono">${call.url}</span> → <span class="${statusClass}">${call.status === 0 ? '—' : call.status}</span>
<span class="help">${call.client}${sizes(call)}</span>${renderFlags([
    [repeats.nPlusOne.has(index), 'N+1'],
    [repeats.duplicates.has(index), 'duplicate'],
    [slow.has(index), 'slow'],
    [failed, 'error'],
    [warned, '4xx'],
  ])}${call.error === null ? '' : html`<p class="call-error status-error-text">${call.error}</p>`}
<details class="headers"><summary>Request headers</summary>${renderKeyValueTable(call.requestHeaders, 'No request headers.')}</details>
<details class="headers"><summary>Response headers</summary>${renderKeyValueTable(call.responseHeaders, 'No response headers.')}</details>
<details class="curl" open><summary>Copy as cURL</summary><textarea class="curl-command mono" readonly rows="2" aria-label="The call as a curl command">${curlCommand(call)}</textarea></details></td>
<td>${renderCallOrigin(call, context.editorLink)}</td></tr>\n`;
}

/** ` · 2 answered 4xx`, amber, beside the errors (the 5xx and the unanswered). */
function renderWarnings(warnings: number): SafeHtml {
  return html` · <span class="${warnings > 0 ? 'warnings status-warning-text' : 'warnings'}">${warnings} answered 4xx</span>`;
}

/**
 * HTTP Client: the application's outgoing calls, as Symfony's HttpClient panel — method, URL,
 * status, sizes and origin, the headers folded, each call as a curl command to replay it, and
 * the same N+1, duplicate and slow flags as the Database panel.
 */
export const httpClientPanel: PanelDefinition<HttpClientCollectorData> = {
  name: 'http_client',
  label: 'HTTP Client',
  collector: HTTP_CLIENT_COLLECTOR,
  badge: (data) => {
    if (data.count === 0) return null;
    const loops = analyzeRepeats(data.calls, shapeOf, (call) => `${call.method} ${call.url}`).nPlusOne.size;
    return { count: data.count, isError: data.errors > 0, isWarning: loops > 0 || data.slow > 0 || (data.warnings ?? 0) > 0 };
  },
  render: (context) => {
    const { data, profile, query } = context;
    if (data.count === 0) return html`<h2>HTTP Client</h2><p class="empty">No outgoing HTTP call was captured.</p>`;
    const repeats = analyzeRepeats(data.calls, shapeOf, (call) => `${call.method} ${call.url}`);
    const slow = slowCalls(data.calls, data.slowMs);
    const rules: FilterRules = {
      n_plus_one: (index) => repeats.nPlusOne.has(index),
      duplicates: (index) => repeats.duplicates.has(index),
      slow: (index) => slow.has(index),
      errors: (index) => {
        const call = data.calls[index];
        return call !== undefined && isFailedHttpCall(call);
      },
    };
    const filters = callFilters(data.calls.length, rules);
    const filter = chosenFilter(query, filters);
    return html`<h2>HTTP Client</h2>
${renderCallTotals(data, ['call', 'calls'], renderWarnings(data.warnings ?? 0))}
${renderFilterLinks(profile.token, 'http_client', filter, filters)}
<table class="http-calls">
<thead><tr><th>#</th><th>Start</th><th>Duration</th><th>Request</th><th>Origin</th></tr></thead>
<tbody>
${renderRowsOrEmpty(filteredIndexes(data.calls.length, rules, filter), 5, (index) => renderCall(context, repeats, slow, index))}</tbody>
</table>`;
  },
};
