import { type FlatErrorEntry } from '../../error-handler/flatten-error';
import { EXCEPTION_COLLECTOR, type ExceptionCollectorData } from '../collectors/exception-collector';
import { html, type SafeHtml } from '../../view/html';
import { renderStackTrace } from '../../view/render-stack-trace';
import { type PanelDefinition } from './panel-definition';
import { formatValue } from './panel-format';

function renderEntry(entry: FlatErrorEntry, label: string): SafeHtml {
  const headers = Object.entries(entry.headers);
  return html`<div class="error-block">
<div class="error-head">${label} <span class="error-class">${entry.class}</span>${entry.code === null ? '' : html` <code>${entry.code}</code>`}
 — <span class="status">${entry.statusCode} ${entry.statusText}</span>${headers.length === 0 ? '' : html` — headers: <code>${formatValue(entry.headers)}</code>`}</div>
<p class="error-message">${entry.message}</p>
${renderStackTrace(entry.trace)}
</div>`;
}

/**
 * Exceptions: every error raised while handling the request, each followed by its chain of
 * previous errors (`cause`), with class, code, status, message and stack trace.
 */
export const exceptionPanel: PanelDefinition<ExceptionCollectorData> = {
  name: 'exception',
  label: 'Exception',
  collector: EXCEPTION_COLLECTOR,
  badge: ({ errors }) => (errors.length === 0 ? null : { count: errors.length, isError: true }),
  render: ({ data: { errors } }) => {
    if (errors.length === 0) return html`<h2>Exceptions</h2><p class="empty">No exception was thrown and caught.</p>`;
    const total = errors.length;
    return html`<h2>Exceptions</h2>
${errors.map(
  (error, index) => html`<section class="exception">
<h3>${total === 1 ? '' : `[${index + 1}/${total}] `}${error.class}: ${error.message}</h3>
${renderEntry(error, 'Thrown')}
${error.previous.map((previous, depth) => renderEntry(previous, depth === 0 ? 'Previous error' : `Previous error (${depth + 1})`))}
</section>\n`,
)}`;
  },
};
