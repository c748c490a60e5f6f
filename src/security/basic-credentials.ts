/** The identifier and password sent with HTTP Basic. */
export interface BasicCredentials {
  readonly identifier: string;
  readonly password: string;
}

/** True when the Authorization header uses the Basic scheme (scheme names are case-insensitive, RFC 9110 §11.1). */
export function isBasicAuthorization(header: string | undefined): header is string {
  return header !== undefined && /^basic(?:\s|$)/i.test(header.trim());
}

/**
 * Reads `Authorization: Basic <base64(identifier:password)>` (RFC 7617): UTF-8, split at the
 * first colon since a password may contain colons. `null` when the header is not well formed.
 */
export function parseBasicCredentials(header: string): BasicCredentials | null {
  const match = /^basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header.trim());
  if (match === null) return null;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { identifier: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
