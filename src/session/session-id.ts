import { randomBytes } from 'node:crypto';

/** 32 random bytes as 64 lower-case hex digits: 256 bits, far beyond guessing (OWASP asks for 64). */
const SESSION_ID = /^[0-9a-f]{64}$/;

/** A new, unguessable session id. */
export function createSessionId(): string {
  return randomBytes(32).toString('hex');
}

/** True for a value that may be a session id; anything else from a cookie is ignored unread. */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}
