/** What replaces a secret in a stored profile. */
export const REDACTED = '******';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-csrf-token', 'x-xsrf-token']);
const SECRET_KEY = /pass|secret|token|api[-_]?key|signature|credential/i;
const MAX_DEPTH = 8;
const MAX_STRING = 4_096;
const MAX_ITEMS = 200;

/** True when `text` names something secret (password, token, api key…) anywhere. */
export function mentionsSecret(text: string): boolean {
  return SECRET_KEY.test(text);
}

/** An absolute URL with the values of secret-looking query parameters replaced. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1 || !mentionsSecret(url.slice(mark + 1))) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return eq !== -1 && mentionsSecret(decodeURIComponentSafe(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${query}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

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
  if (typeof value === 'function') return '(function)';
  if (typeof value !== 'object') return String(value);
  if (depth >= MAX_DEPTH) return '(too deep)';
  // Objects whose data is not in own enumerable fields: recorded by what they say, not as `{}`.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '(invalid date)' : value.toISOString();
  if (value instanceof Error) return { class: value.constructor.name, message: redactData(value.message, depth + 1) };
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `(${value.byteLength} bytes)`;
  if (value instanceof Map) return redactData(Object.fromEntries(value), depth);
  if (value instanceof Set) return redactData([...value], depth);
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redactData(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value).slice(0, MAX_ITEMS)) out[key] = SECRET_KEY.test(key) ? REDACTED : redactData(item, depth + 1);
  return out;
}
