import { frameLocation, type StackFrame } from '../error-handler/parse-stack';
import { html, type SafeHtml } from './html';

/** What a page adds to each frame; the error page adds nothing, the profiler's exception panel both. */
export interface StackTraceOptions {
  /** The editor link of the frame's position, or `null` for plain text. */
  readonly link?: (frame: StackFrame) => string | null;
  /** Markup shown under the frame (the source lines around it), or `null`. */
  readonly details?: (frame: StackFrame) => SafeHtml | null;
}

/** Node's own code and dependencies: shown dimmed, so the application's frames stand out. */
export function isVendorFrame(frame: StackFrame): boolean {
  return frame.file === '' || frame.file.startsWith('node:') || frame.file.includes('/node_modules/');
}

/**
 * A stack trace as a list of frames, function then location, for the error page and the
 * profiler's exception panel alike (their rules are in the base stylesheet). Frames come first
 * where the error was created, as `parseStack` gives them.
 */
export function renderStackTrace(trace: readonly StackFrame[], options: StackTraceOptions = {}): SafeHtml {
  if (trace.length === 0) return html`<p class="error-message empty">No stack trace.</p>`;
  return html`<ol class="frames">
${trace.map((frame) => {
  const href = options.link?.(frame) ?? null;
  const location = href === null ? html`<span class="loc">${frameLocation(frame)}</span>` : html`<a class="loc editor-link" href="${href}">${frameLocation(frame)}</a>`;
  return html`<li class="${isVendorFrame(frame) ? 'frame vendor' : 'frame'}"><span class="fn">${frame.function || '(anonymous)'}</span> ${location}${options.details?.(frame) ?? ''}</li>\n`;
})}</ol>`;
}
