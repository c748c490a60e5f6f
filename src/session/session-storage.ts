/** Session attributes as stored: a plain JSON object. */
export type SessionData = Record<string, unknown>;

/**
 * Where sessions live between requests. Every method is asynchronous I/O; a LazySession calls
 * `read` only once a controller starts it.
 */
export interface SessionStorage {
  /** The attributes stored under `id`, or `null` when there is no such session (or it expired). */
  read(id: string): Promise<SessionData | null>;
  /** Stores `data` under `id` and restarts its lifetime. */
  write(id: string, data: Readonly<SessionData>): Promise<void>;
  /** Restarts the lifetime of a session that was read but not changed. */
  touch(id: string): Promise<void>;
  /** Removes the session. */
  destroy(id: string): Promise<void>;
}
