/** Parses a `Cookie` header (RFC 6265 §4.2); values are percent-decoded where valid. */
export function parseCookies(header: string): Readonly<Record<string, string>> {
  const cookies: Record<string, string> = {};
  // Most requests send none (an API client, a first visit): nothing to split.
  if (header === '') return cookies;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    // hasOwn, not `in`: a cookie may be named like an Object.prototype member (`constructor`).
    if (name === '' || Object.hasOwn(cookies, name)) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

export interface CookieOptions {
  readonly maxAge?: number;
  readonly path?: string;
  readonly httpOnly?: boolean;
  readonly sameSite?: 'Lax' | 'Strict' | 'None';
  readonly secure?: boolean;
}

/** A `Set-Cookie` value; defaults to `path=/; httponly; samesite=lax` as Symfony does. */
export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`];
  if (options.maxAge !== undefined) {
    parts.push(`Max-Age=${options.maxAge}`);
    parts.push(`Expires=${new Date(Date.now() + options.maxAge * 1000).toUTCString()}`);
  }
  parts.push(`Path=${options.path ?? '/'}`);
  if (options.secure === true) parts.push('Secure');
  if (options.httpOnly ?? true) parts.push('HttpOnly');
  parts.push(`SameSite=${options.sameSite ?? 'Lax'}`);
  return parts.join('; ');
}
