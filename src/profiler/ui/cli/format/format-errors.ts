import { type FlatError, type FlatErrorEntry } from '../../../../error-handler/flatten-error';
import { type StackFrame } from '../../../../error-handler/parse-stack';

function frameText(frame: StackFrame): string {
  if (frame.file === '') return frame.function;
  const where = frame.line > 0 ? `${frame.file}:${frame.line}:${frame.column}` : frame.file;
  return frame.function === '' ? where : `${frame.function} (${where})`;
}

/** The heading line, then the message and the first frames, indented under it. */
function entryLines(entry: FlatErrorEntry, frames: number): [string, ...string[]] {
  const code = entry.code === null ? '' : ` [${entry.code}]`;
  const lines: [string, ...string[]] = [`${entry.class}${code}: ${entry.statusCode} ${entry.statusText}`, `  ${entry.message}`];
  for (const frame of entry.trace.slice(0, frames)) lines.push(frame.hidden === undefined ? `    at ${frameText(frame)}` : `    ${frame.function}`);
  const hidden = entry.trace.length - frames;
  if (hidden > 0) lines.push(`    … ${hidden} more frame${hidden === 1 ? '' : 's'} (--json shows them)`);
  return lines;
}

/**
 * Each error with its chain of previous errors (`Caused by:`), each showing its first `frames`
 * stack frames: where it was created is what one looks for first.
 */
export function formatErrors(errors: readonly FlatError[], frames = 3): string[] {
  const lines: string[] = [];
  errors.forEach((error, index) => {
    const [heading, ...rest] = entryLines(error, frames);
    lines.push(`${index + 1}) ${heading}`, ...rest.map((line) => `   ${line}`));
    for (const previous of error.previous) {
      const [cause, ...details] = entryLines(previous, frames);
      lines.push(`   Caused by: ${cause}`, ...details.map((line) => `   ${line}`));
    }
  });
  return lines;
}
