/** One frame of a stack trace; `line` and `column` are 0 when V8 gave no position. */
export interface StackFrame {
  readonly function: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /**
   * Set on the frame that stands for this many frames of the request machine left out (see
   * hideMachineFrames); its `function` says so in words, its file is empty.
   */
  readonly hidden?: number;
}

/** A line of a V8 stack that is a frame: `    at …`. */
const FRAME_LINE = /^\s+at\s/;
const CALL = /^(.*?) \((.*)\)$/;
const POSITION = /^(.*):(\d+):(\d+)$/;
/** An anonymous function awaited: `at async /app/run.ts:4:37`, whose position has no parentheses. */
const ANONYMOUS_ASYNC = /^async (?=\S+:\d+:\d+$)/;

function parseFrame(text: string): StackFrame {
  const call = CALL.exec(text);
  const anonymousAsync = call === null && ANONYMOUS_ASYNC.test(text);
  const fn = call?.[1] ?? (anonymousAsync ? 'async' : '');
  const location = call?.[2] ?? (anonymousAsync ? text.slice('async '.length) : text);
  const position = POSITION.exec(location);
  if (position === null) {
    // `at async Promise.all (index 0)`, `at foo (native)`: a frame with no source position.
    return { function: text, file: '', line: 0, column: 0 };
  }
  return { function: fn, file: position[1] ?? '', line: Number(position[2]), column: Number(position[3]) };
}

/**
 * The frames of a V8 `error.stack`, first frame where the error was created, at most `limit`.
 * Only the trailing block of `    at …` lines counts: a message may span lines and contain text
 * that looks like a frame.
 */
export function parseStack(stack: string, limit = 50): StackFrame[] {
  const lines = stack.split('\n');
  let first = lines.length;
  while (first > 0 && FRAME_LINE.test(lines[first - 1] ?? '')) first--;
  return lines.slice(first, first + limit).map((line) => parseFrame(line.trim().slice(3)));
}

/** Where a frame points, as V8 writes it: `file:line:column`, or the file alone without a position. */
export function frameLocation(frame: StackFrame): string {
  return frame.line === 0 ? frame.file : `${frame.file}:${frame.line}:${frame.column}`;
}
