import { LoupeError } from '../errors/loupe-error';
import { parsePasswordHash } from './password-hasher';
import { isThenable } from '../kernel/is-thenable';

/** A user as configured: the identifier, the scrypt hash of the password and the roles. */
export interface SecurityUser {
  /** What the user logs in with (the HTTP Basic user name); unique within a provider. */
  readonly identifier: string;
  /** `scrypt$N$r$p$salt$hash`, see password-hasher.ts. */
  readonly passwordHash: string;
  /** The roles access rules check, e.g. `ROLE_ADMIN`. */
  readonly roles: readonly string[];
}

/** A user, or `null` when there is none by that identifier. */
export type LoadedUser = SecurityUser | null;

/**
 * Loads users by identifier (Symfony's UserProviderInterface). A provider backed by a database
 * returns a promise; one in memory answers at once, and the listeners then stay synchronous.
 */
export interface UserProvider {
  /** The user named `identifier`, or `null` when there is none; a rejection fails the request. */
  loadUser(identifier: string): LoadedUser | PromiseLike<LoadedUser>;
}

/** Calls `use` with the loaded user: at once for a synchronous provider, once loaded for an async one. */
export function withLoadedUser<T>(loaded: LoadedUser | PromiseLike<LoadedUser>, use: (user: LoadedUser) => T): T | Promise<T> {
  return isThenable(loaded) ? Promise.resolve(loaded).then(use) : use(loaded);
}

/**
 * Users from configuration, kept in memory (Symfony's InMemoryUserProvider). Hashes are checked
 * once here so that a typo in configuration fails at start, not at the first login.
 */
export class InMemoryUserProvider implements UserProvider {
  readonly #users = new Map<string, SecurityUser>();

  constructor(users: readonly SecurityUser[]) {
    for (const user of users) {
      if (parsePasswordHash(user.passwordHash) === null) {
        throw new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid password hash for user "${user.identifier}": expected scrypt$N$r$p$salt$hash.`);
      }
      if (this.#users.has(user.identifier)) {
        throw new LoupeError('LOUPE_ERR_CONFIG_INVALID', `User "${user.identifier}" is configured twice.`);
      }
      this.#users.set(user.identifier, Object.freeze({ ...user, roles: Object.freeze([...user.roles]) }));
    }
  }

  /** The configured user named `identifier`, or `null`. */
  loadUser(identifier: string): SecurityUser | null {
    return this.#users.get(identifier) ?? null;
  }
}
