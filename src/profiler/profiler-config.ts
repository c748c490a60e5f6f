export interface ProfilerConfig {
  /** Seconds a stored profile lives. */
  readonly lifetime: number;
  /** Most profiles kept; older ones are trimmed. */
  readonly maxProfiles: number;
  /** Most bytes of one stored profile's JSON; longer values are cut to fit (see serializeWithinBudget). */
  readonly maxProfileBytes: number;
  /** Most bytes of all stored profiles and their search rows; the oldest are removed past it. */
  readonly maxBytes: number;
  /** Client address ranges (CIDR) allowed to read the profiler. */
  readonly allowedIps: readonly string[];
  /** Name patterns redacted besides the built-in ones (see SecretNames). */
  readonly redact: readonly string[];
  /** Cookies whose values profiles show; every other cookie's value is replaced. */
  readonly cookieAllowList: readonly string[];
  /** The share of requests profiled, 0 to 1 (see Sampler); errors and slow requests always are. */
  readonly sample: number;
  /** Requests at least this many milliseconds long are profiled whatever `sample` draws. */
  readonly slowMs: number;
}

/** The defaults readConfig applies; the CLI, which never writes profiles, needs no other. */
export const PROFILER_DEFAULTS: ProfilerConfig = Object.freeze({
  lifetime: 86400,
  maxProfiles: 50_000,
  maxProfileBytes: 64 * 1024,
  maxBytes: 256 * 1024 * 1024,
  allowedIps: Object.freeze(['127.0.0.0/8', '::1/128']),
  redact: Object.freeze([]),
  cookieAllowList: Object.freeze([]),
  sample: 1,
  slowMs: 500,
});
