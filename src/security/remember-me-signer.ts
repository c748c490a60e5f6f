import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a remember-me cookie says: who, and until when (epoch seconds). */
export interface RememberMePayload {
  readonly u: string;
  readonly e: number;
}

export type RememberMeCheck =
  | { readonly valid: true; readonly payload: RememberMePayload }
  | { readonly valid: false; readonly reason: 'malformed' | 'unknown_user' | 'signature' | 'expired' };

/** Longer values are not read at all: a real cookie is about a hundred characters. */
const MAX_TOKEN_LENGTH = 1024;

/**
 * Signs and checks remember-me cookies: `base64url(JSON payload).base64url(HMAC-SHA256)`.
 * As Symfony's SignatureRememberMeHandler, the signature also covers a property of the user
 * (their password hash), so changing the password invalidates every cookie issued before.
 */
export class RememberMeSigner {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  /** The cookie value for `payload`, bound to the user's `binding` (their password hash). */
  sign(payload: RememberMePayload, binding: string): string {
    const encoded = Buffer.from(JSON.stringify({ u: payload.u, e: payload.e })).toString('base64url');
    return `${encoded}.${this.#mac(encoded, binding).toString('base64url')}`;
  }

  /**
   * Checks a cookie value. `bindingOf` gives the binding of the named user, or `null` when the
   * user no longer exists. The payload is untrusted until the signature matched.
   */
  check(token: string, nowSeconds: number, bindingOf: (identifier: string) => string | null): RememberMeCheck {
    const { encoded, signature, payload } = splitToken(token);
    if (encoded === undefined || signature === undefined || payload === null) return { valid: false, reason: 'malformed' };
    const binding = bindingOf(payload.u);
    if (binding === null) return { valid: false, reason: 'unknown_user' };
    // Compared as text, not decoded bytes: base64 decoding ignores unused trailing bits, so
    // several spellings would decode to the same MAC. timingSafeEqual throws on different
    // lengths; the length of a MAC is no secret.
    const expected = Buffer.from(this.#mac(encoded, binding).toString('base64url'));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false, reason: 'signature' };
    if (payload.e <= nowSeconds) return { valid: false, reason: 'expired' };
    return { valid: true, payload };
  }

  /**
   * The identifier a cookie names, unverified: which user to load before check() (a user
   * provider may be asynchronous). `null` when the cookie is malformed.
   */
  identifierOf(token: string): string | null {
    return splitToken(token).payload?.u ?? null;
  }

  #mac(encoded: string, binding: string): Buffer {
    return createHmac('sha256', this.#secret).update(encoded).update('\0').update(binding).digest();
  }
}

function splitToken(token: string): { encoded?: string; signature?: string; payload: RememberMePayload | null } {
  const parts = token.length <= MAX_TOKEN_LENGTH ? token.split('.') : [];
  const [encoded, signature] = parts;
  if (parts.length !== 2 || encoded === undefined || signature === undefined) return { payload: null };
  return { encoded, signature, payload: decodePayload(encoded) };
}

function decodePayload(encoded: string): RememberMePayload | null {
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return null;
  try {
    const data: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (typeof data !== 'object' || data === null) return null;
    const { u, e } = data as { u?: unknown; e?: unknown };
    return typeof u === 'string' && typeof e === 'number' && Number.isFinite(e) ? { u, e } : null;
  } catch {
    return null;
  }
}
