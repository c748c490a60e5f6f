/** What an HTTP call's outcome is judged on: its error (no response) and its status. */
interface HttpOutcome {
  readonly error: string | null;
  readonly status: number;
}

/**
 * Whether an outgoing HTTP call failed: no response, or a 5xx one, a failure of the service
 * called. Counted in the HTTP Client panel's errors, the toolbar's red, and profiler:check's
 * failed calls alike.
 */
export function isFailedHttpCall(call: HttpOutcome): boolean {
  return call.error !== null || call.status >= 500;
}

/**
 * Whether an outgoing HTTP call was answered 4xx: a warning, not a failure, since an application
 * may expect one (a 404 for a lookup), as Symfony's HttpClient panel colours them apart.
 */
export function isWarnedHttpCall(call: HttpOutcome): boolean {
  return call.error === null && call.status >= 400 && call.status < 500;
}
