const NEEDS_ESCAPE = /[^\x20-\x21\x23-\x5b\x5d-\x7e]/;
/** A character a metric name may not hold (RFC 9110 §5.6.2 token): a state named `error handler` becomes `error_handler`. */
const NOT_TOKEN = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/g;
/** The same, to test a name: most are tokens already and need no new string. */
const HAS_NOT_TOKEN = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;

/** The application's captured I/O, by span category (also the metric's name), with the metric's description. */
export const IO_METRICS = [
  ['db', 'SQL queries'],
  ['http', 'outgoing HTTP calls'],
  ['cache', 'Redis commands'],
] as const;

/** A quoted-string (RFC 9110 §5.6.4): `"` and `\` escaped, anything outside visible ASCII replaced. */
function quoted(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  return `"${text.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&')}"`;
}

/**
 * Milliseconds as a `Server-Timing` metric's `dur` gives them, to the microsecond (`0.042`,
 * `12.500`). Written from two integers, on every response: toFixed(3) costs some 2.5 times as
 * much, and the shortest form of a double more still.
 */
export function durationText(ms: number): string {
  const us = Math.round(ms * 1000);
  // Not a duration a clock gives (negative, NaN, past 2^53 µs): as toFixed writes it.
  if (!(us >= 0 && us <= Number.MAX_SAFE_INTEGER)) return ms.toFixed(3);
  const whole = Math.floor(us / 1000);
  const fraction = us - whole * 1000;
  return `${whole}.${fraction < 10 ? '00' : fraction < 100 ? '0' : ''}${fraction}`;
}

/**
 * One metric of a `Server-Timing` value (https://www.w3.org/TR/server-timing/): its name made a
 * token, its duration, and its description where it has one (the name alone keeps the header short).
 */
export function serverTimingMetric(name: string, duration: number, description?: string): string {
  const dur = `${HAS_NOT_TOKEN.test(name) ? name.replace(NOT_TOKEN, '_') : name};dur=${durationText(duration)}`;
  return description === undefined || description === '' ? dur : `${dur};desc=${quoted(description)}`;
}
