/**
 * Runs `run` with V8's capture of stack traces off: the errors it creates have a stack of their
 * message alone. For Loupe's own expected errors (an unrouted request's 404 and 405) when
 * nothing will show their trace (debug off: no error page with a trace, no profile): capturing
 * costs a few microseconds per error, for nobody. The limit is restored before returning or
 * throwing, so nothing outside `run` (another application in the process, the code that called
 * it) is affected. Where traces are wanted, call the code directly: a wrapper would add its own
 * frames to them.
 */
export function withoutStackTraces<T>(run: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return run();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
