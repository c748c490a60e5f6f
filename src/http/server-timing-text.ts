const NEEDS_ESCAPE = /[^\x20-\x21\x23-\x5b\x5d-\x7e]/;

/** A quoted-string (RFC 9110 §5.6.4): `"` and `\` escaped, anything outside visible ASCII replaced. */
export function quoted(text: string): string {
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
