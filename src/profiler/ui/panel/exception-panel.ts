import { type FlatErrorEntry } from '../../../error-handler/flatten-error';
import { EXCEPTION_COLLECTOR, type ExceptionCollectorData } from '../../collect/collectors/exception-collector';
import { html, type SafeHtml } from '../../../view/html';
import { renderStackTrace, type StackTraceOptions } from '../../../view/render-stack-trace';
import { type PanelDefinition } from './panel-definition';
import { formatValue } from './panel-format';
import { applicationFrames, renderSourceExcerpt } from '../../../view/render-source-excerpt';

/**
 * `NonError` is how a thrown value that is not an Error is flattened (`cause: 'timeout'`, `throw
 * 42`): the reader sees the value itself, which is the message, not that name.
 */
const NON_ERROR = 'NonError';

function renderEntry(entry: FlatErrorEntry, label: string, trace: StackTraceOptions): SafeHtml {
  const headers = Object.entries(entry.headers);
  if (entry.class === NON_ERROR) {
    return html`<div class="error-block non-error">
<div class="error-head">${label}: <span class="empty">a value that is not an Error, with no stack trace</span></div>
<p class="error-message"><code class="thrown-value">${entry.message}</code></p>
</div>`;
  }
  return html`<div class="error-block">
<div class="error-head">${label} <span class="error-class">${entry.class}</span>${entry.code === null ? '' : html` <code>${entry.code}</code>`}
 — <span class="status">${entry.statusCode} ${entry.statusText}</span>${headers.length === 0 ? '' : html` — headers: <code>${formatValue(entry.headers)}</code>`}</div>
<p class="error-message">${entry.message}</p>
${renderStackTrace(entry.trace, trace)}
</div>`;
}

/**
 * Exceptions: every error raised while handling the request, each followed by its chain of
 * previous errors (`cause`), with class, code, status, message and stack trace. Frames link to
 * the editor (PROFILER_IDE), and the application's first frames show the lines around them,
 * read from disk when the page is opened (the panel exists only with debug).
 */
export const exceptionPanel: PanelDefinition<ExceptionCollectorData> = {
  name: 'exception',
  label: 'Exception',
  collector: EXCEPTION_COLLECTOR,
  badge: ({ errors }) => (errors.length === 0 ? null : { count: errors.length, isError: true }),
  sources: ({ errors }) => applicationFrames(errors.flatMap((error) => [error, ...error.previous]).map((entry) => entry.trace)),
  render: (context) => {
    const { errors } = context.data;
    if (errors.length === 0) return html`<h2>Exceptions</h2><p class="empty">No exception was thrown and caught.</p>`;
    const total = errors.length;
    const trace: StackTraceOptions = { link: (frame) => (frame.line > 0 ? context.editorLink(frame.file, frame.line) : null), details: (frame) => renderSourceExcerpt(context.source, frame) };
    return html`<h2>Exceptions</h2>
${errors.map(
  (error, index) => html`<section class="exception">
<h3>${total === 1 ? '' : `[${index + 1}/${total}] `}${error.class === NON_ERROR ? `Thrown: ${error.message}` : `${error.class}: ${error.message}`}</h3>
${renderEntry(error, 'Thrown', trace)}
${error.previous.map((previous, depth) => renderEntry(previous, depth === 0 ? 'Previous error' : `Previous error (${depth + 1})`, trace))}
</section>\n`,
)}`;
  },
};
