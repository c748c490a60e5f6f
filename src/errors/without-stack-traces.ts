/** Whether a LoupeError made now captures a stack trace: false only inside withoutStackTraces. */
let capturing = true;

/**
 * Runs `run` with Loupe's errors made without a stack trace: a LoupeError created inside has a
 * stack of its name and message alone (see LoupeError), as V8 would make it with
 * `Error.stackTraceLimit` at 0. For Loupe's own expected errors (an unrouted request's 404 and
 * 405, a 413) when nothing will show their trace (debug off: no error page with a trace, no
 * profile): capturing costs a few microseconds per error, for nobody. Nothing global changes:
 * neither `Error.stackTraceLimit` nor any error made outside Loupe (another library's, the
 * application's) is touched, and the setting is Loupe's own and back as it was before `run`
 * returns or throws. Where traces are wanted, call the code directly: a wrapper would add its own
 * frames to them.
 */
export function withoutStackTraces<T>(run: () => T): T {
  const previous = capturing;
  capturing = false;
  try {
    return run();
  } finally {
    capturing = previous;
  }
}

/** Whether a LoupeError made now captures its stack trace (false inside withoutStackTraces). */
export function capturesStackTraces(): boolean {
  return capturing;
}
