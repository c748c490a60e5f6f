import { type StackFrame } from '../error-handler/parse-stack';
import { html, type SafeHtml } from './html';
import { type SourcePosition, type SourceReader } from './read-source-excerpts';
import { isVendorFrame } from './render-stack-trace';

/** The application's frames shown with their source: the first ones, where the error is. */
const SOURCE_FRAMES = 10;

/**
 * The positions of the application's frames (not Node's, not node_modules') of `traces`, in the
 * order a page shows them: those whose lines the error page and the Exception panel read.
 */
export function applicationFrames(traces: readonly (readonly StackFrame[])[]): SourcePosition[] {
  return traces
    .flat()
    .filter((frame) => !isVendorFrame(frame) && frame.line > 0)
    .slice(0, SOURCE_FRAMES);
}

/** The lines around the frame, the frame's own marked, when the page read them (rules in the base stylesheet). */
export function renderSourceExcerpt(source: SourceReader, frame: StackFrame): SafeHtml | null {
  if (isVendorFrame(frame)) return null;
  const excerpt = source(frame.file, frame.line);
  if (excerpt === null) return null;
  return html`<div class="source">${excerpt.lines.map((text, at) => {
    const number = excerpt.first + at;
    return html`<span class="${number === excerpt.line ? 'line current' : 'line'}"><span class="no">${number}</span>${text}</span>`;
  })}</div>`;
}
