import { createHash } from 'node:crypto';
import { TooManyRequestsHttpError } from '../errors/http-error';
import { type LoginThrottle, type LoginThrottleDecision } from './login-throttle';
import { verifyPassword } from './password-hasher';
import { type SecurityUser, type UserProvider } from './user-provider';
import { isThenable } from '../kernel/is-thenable';

/**
 * Checked against when the user does not exist, so that an unknown identifier costs as much as a
 * wrong password and response times do not tell which users exist (OWASP, authentication cheat sheet).
 */
const DUMMY_HASH = `scrypt$16384$8$1$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`;

/** How a CredentialsVerifier remembers passwords it already checked. */
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
  readonly #inFlight = new Map<string, Promise<boolean>>();
  #throttle: LoginThrottle | null = null;

  constructor(users: UserProvider, options: CredentialsVerifierOptions = {}) {
    this.#users = users;
    this.#cacheSize = options.cacheSize ?? 1000;
  }

  /** How many successful verifications are remembered. */
  get cachedCount(): number {
    return this.#verified.size;
  }

  /**
   * Limits failed verifications per client address, identifier and both (createLoupe sets one
   * once Redis is connected): past a limit verify() refuses with a 429 before any check.
   * @internal
   */
  useThrottle(throttle: LoginThrottle): void {
    this.#throttle = throttle;
  }

  /**
   * The user when these credentials were verified recently, without running scrypt; `null` when
   * they must be checked with verify() (also whenever the provider is asynchronous). It does not
   * ask the throttle: an authenticator calls verify(), which asks it before this cache, so that a
   * locked-out client cannot learn that a guess is right.
   */
  verifyCached(identifier: string, password: string): SecurityUser | null {
    const user = this.#users.loadUser(identifier);
    if (user === null || isThenable(user)) return null;
    return this.#hit(cacheKey(user, password)) ? user : null;
  }

  /**
   * The user when the password is right, else `null`; scrypt runs off the event loop, so a wrong
   * password costs its sender the wait and nobody else. With a throttle, throws a
   * TooManyRequestsHttpError (429) once `clientAddress` or the identifier failed too often:
   * before the cache is consulted, and before any real check, where the attempt is counted
   * first, so that parallel guesses get no more checks than the allowance.
   */
  async verify(identifier: string, password: string, clientAddress = ''): Promise<SecurityUser | null> {
    const throttle = this.#throttle;
    refuseWhenThrottled(await throttle?.check(clientAddress, identifier));
    const user = await this.#users.loadUser(identifier);
    const key = user === null ? null : cacheKey(user, password);
    if (key !== null && this.#hit(key)) return user;
    if (user === null || key === null) {
      refuseWhenThrottled(await throttle?.consume(clientAddress, identifier));
      await verifyPassword(password, DUMMY_HASH);
      return null;
    }
    // The same credentials from the same client while a check of them runs (a browser's first
    // requests with Basic) wait for that check: one attempt counted, one scrypt.
    const flightKey = `${clientAddress}\0${key}`;
    let flight = this.#inFlight.get(flightKey);
    if (flight === undefined) {
      flight = this.#check(user, password, key, identifier, clientAddress).finally(() => this.#inFlight.delete(flightKey));
      this.#inFlight.set(flightKey, flight);
    }
    return (await flight) ? user : null;
  }

  /** Counts the attempt, then runs scrypt; true when the password is right. */
  async #check(user: SecurityUser, password: string, key: string, identifier: string, clientAddress: string): Promise<boolean> {
    const throttle = this.#throttle;
    refuseWhenThrottled(await throttle?.consume(clientAddress, identifier));
    if (!(await verifyPassword(password, user.passwordHash))) return false;
    this.#remember(key);
    await throttle?.reset(clientAddress, identifier);
    return true;
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

function refuseWhenThrottled(decision: LoginThrottleDecision | undefined): void {
  if (decision !== undefined && !decision.allowed) throw new TooManyRequestsHttpError(decision.retryAfterSeconds);
}

function cacheKey(user: SecurityUser, password: string): string {
  // NUL separators: no identifier/password split can collide with another.
  return createHash('sha256').update(`${user.identifier}\0${password}\0${user.passwordHash}`).digest('hex');
}
