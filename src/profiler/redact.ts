/** What replaces a secret in a stored profile. */
export const REDACTED = '******';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-csrf-token', 'x-xsrf-token']);
const SECRET_KEY = /pass|secret|token|api[-_]?key|signature|credential/i;
const MAX_DEPTH = 8;
const MAX_STRING = 4_096;
const MAX_ITEMS = 200;

/** Headers with the values of Authorization, Cookie, Set-Cookie (and the like) replaced. */
export function redactHeaders(headers: Readonly<Record<string, string | readonly string[]>>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (SECRET_HEADERS.has(name.toLowerCase())) out[name] = Array.isArray(value) ? value.map(() => REDACTED) : REDACTED;
    else out[name] = Array.isArray(value) ? [...value] : (value as string);
  }
  return out;
}

/** Cookies with the values of `secretNames` (session, remember-me) and secret-looking names replaced. */
export function redactCookies(cookies: Readonly<Record<string, string>>, secretNames: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(cookies)) out[name] = secretNames.has(name) || SECRET_KEY.test(name) ? REDACTED : value;
  return out;
}

/**
 * A bounded, plain copy of `value` with fields named like password, secret or token replaced.
 * Done synchronously when the profile is collected, so no live object outlives the request.
 */
export function redactData(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length} characters)` : value;
  if (typeof value !== 'object') return String(value);
  if (depth >= MAX_DEPTH) return '(too deep)';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redactData(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, MAX_ITEMS)) out[key] = SECRET_KEY.test(key) ? REDACTED : redactData(item, depth + 1);
  return out;
}
