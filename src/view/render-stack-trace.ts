import { frameLocation, type StackFrame } from '../error-handler/parse-stack';
import { html, type SafeHtml } from './html';

/** Node's own code and dependencies: shown dimmed, so the application's frames stand out. */
function isVendor(frame: StackFrame): boolean {
  return frame.file === '' || frame.file.startsWith('node:') || frame.file.includes('/node_modules/');
}

/**
 * A stack trace as a list of frames, function then location, for the error page and the
 * profiler's exception panel alike (their rules are in the base stylesheet). Frames come first
 * where the error was created, as `parseStack` gives them.
 */
export function renderStackTrace(trace: readonly StackFrame[]): SafeHtml {
  if (trace.length === 0) return html`<p class="error-message empty">No stack trace.</p>`;
  return html`<ol class="frames">
${trace.map(
  (frame) =>
    html`<li class="${isVendor(frame) ? 'frame vendor' : 'frame'}"><span class="fn">${frame.function || '(anonymous)'}</span> <span class="loc">${frameLocation(frame)}</span></li>\n`,
)}</ol>`;
}
