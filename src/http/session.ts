/** A server-side session: nothing is read or written until a controller uses it. */
export interface Session {
  /** The session id, or `null` before one is needed. */
  readonly id: string | null;
  /** True once the session was loaded (or created) for this request. */
  readonly isStarted: boolean;
  /** How many times the session was read or written; drives cache directives and the cookie. */
  readonly usageCount: number;
  /** True when attributes changed and must be saved. */
  readonly isDirty: boolean;
  /** Loads the session from storage; resolves at once when already started. */
  start(): Promise<void>;
  /** The attribute stored under `key`, or `undefined`; throws LOUPE_ERR_SESSION_STORAGE before `start()`. */
  get(key: string): unknown;
  /** Stores `value` (saved as JSON after the response) under `key`; throws LOUPE_ERR_SESSION_STORAGE before `start()`. */
  set(key: string, value: unknown): void;
  /** Removes `key`; a session left empty is deleted from storage. Throws LOUPE_ERR_SESSION_STORAGE before `start()`. */
  remove(key: string): void;
  /** A copy of every attribute. */
  all(): Readonly<Record<string, unknown>>;
}

/** The user the firewall authenticated for this request. */
export interface AuthenticatedUser {
  /** The user's identifier as the user provider knows it (the HTTP Basic user name). */
  readonly identifier: string;
  /** The user's roles, e.g. `ROLE_ADMIN`, as the access rules check them. */
  readonly roles: readonly string[];
  /** How the user was authenticated: `http_basic`, `remember_me`, `form_login`. */
  readonly via: string;
}
