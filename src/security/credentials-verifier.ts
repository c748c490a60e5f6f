import { createHash } from 'node:crypto';
import { verifyPassword } from './password-hasher';
import { type SecurityUser, type UserProvider } from './user-provider';

/**
 * Checked against when the user does not exist, so that an unknown identifier costs as much as a
 * wrong password and response times do not tell which users exist (OWASP, authentication cheat sheet).
 */
const DUMMY_HASH = `scrypt$16384$8$1$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`;

export interface CredentialsVerifierOptions {
  /** Most successful verifications remembered; the oldest is forgotten first. */
  readonly cacheSize?: number;
}

/**
 * Checks an identifier and password against the user provider. scrypt is slow by design, and
 * HTTP Basic sends the password with every request: successful checks are remembered in a bounded
 * map keyed by a SHA-256 of identifier, password and stored hash, so a changed password misses.
 * Failures are never cached.
 */
export class CredentialsVerifier {
  readonly #users: UserProvider;
  readonly #cacheSize: number;
  readonly #verified = new Map<string, true>();

  constructor(users: UserProvider, options: CredentialsVerifierOptions = {}) {
    this.#users = users;
    this.#cacheSize = options.cacheSize ?? 1000;
  }

  /** How many successful verifications are remembered. */
  get cachedCount(): number {
    return this.#verified.size;
  }

  /**
   * The user when these credentials were verified recently, without running scrypt; `null` when
   * they must be checked with verify(). Lets the firewall stay synchronous for a known client.
   */
  verifyCached(identifier: string, password: string): SecurityUser | null {
    const user = this.#users.loadUser(identifier);
    return user !== null && this.#hit(cacheKey(user, password)) ? user : null;
  }

  /** The user when the password is right, else `null`; scrypt runs off the event loop. */
  async verify(identifier: string, password: string): Promise<SecurityUser | null> {
    const user = this.#users.loadUser(identifier);
    if (user === null) {
      await verifyPassword(password, DUMMY_HASH);
      return null;
    }
    const key = cacheKey(user, password);
    if (this.#hit(key)) return user;
    if (!(await verifyPassword(password, user.passwordHash))) return null;
    this.#remember(key);
    return user;
  }

  #hit(key: string): boolean {
    if (!this.#verified.has(key)) return false;
    // Map keeps insertion order: moving a hit to the end makes eviction least-recently-used.
    this.#verified.delete(key);
    this.#verified.set(key, true);
    return true;
  }

  #remember(key: string): void {
    this.#verified.set(key, true);
    while (this.#verified.size > this.#cacheSize) {
      const oldest = this.#verified.keys().next();
      if (oldest.done === true) break;
      this.#verified.delete(oldest.value);
    }
  }
}

function cacheKey(user: SecurityUser, password: string): string {
  // NUL separators: no identifier/password split can collide with another.
  return createHash('sha256').update(`${user.identifier}\0${password}\0${user.passwordHash}`).digest('hex');
}
