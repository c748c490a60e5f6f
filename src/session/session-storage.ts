import { type Stopwatch } from '../kernel/stopwatch';

/** Session attributes as stored: a plain JSON object. */
export type SessionData = Record<string, unknown>;

/**
 * Where sessions live between requests. Every method is asynchronous I/O; a LazySession calls
 * `read` only once a controller starts it. `stopwatch`, when given, times the storage's I/O into
 * the request's timeline (a `redis` span per command for Redis).
 */
export interface SessionStorage {
  /** The attributes stored under `id`, or `null` when there is no such session (or it expired). */
  read(id: string, stopwatch?: Stopwatch): Promise<SessionData | null>;
  /** Stores `data` under `id` and restarts its lifetime. */
  write(id: string, data: Readonly<SessionData>, stopwatch?: Stopwatch): Promise<void>;
  /** Restarts the lifetime of a session that was read but not changed. */
  touch(id: string, stopwatch?: Stopwatch): Promise<void>;
  /** Removes the session. */
  destroy(id: string, stopwatch?: Stopwatch): Promise<void>;
}
