import { type SessionData, type SessionStorage } from './session-storage';

export interface MemorySessionStorageOptions {
  /** Seconds a session lives without being written or touched (SESSION_LIFETIME). */
  readonly lifetime: number;
  /** Most sessions kept; past it the one used least recently is dropped (its user is logged out). */
  readonly maxSessions?: number;
  /** The clock, in milliseconds; `Date.now` by default. */
  readonly now?: () => number;
}

/** Enough for the users of one development or test process; a bound so that a client making a session per request cannot fill the heap. */
export const MEMORY_SESSION_DEFAULTS = Object.freeze({ maxSessions: 10_000 });

interface StoredSession {
  /** JSON, as Redis stores it: what a request reads is a copy, never an object another request holds. */
  readonly json: string;
  readonly expiresAt: number;
}

/**
 * Sessions in this process's memory, for an application without Redis (REDIS_URL empty): the
 * same expiry as in Redis (SESSION_LIFETIME idle seconds), bounded in count. Nothing is shared
 * with another process, and every session is gone when the process ends.
 *
 * The map is kept in order of last use (a write or a touch moves a session to its end), and every
 * session has the same lifetime: the expired ones are always at its start, so they are removed
 * there as sessions are used, with no timer.
 */
export class MemorySessionStorage implements SessionStorage {
  readonly #sessions = new Map<string, StoredSession>();
  readonly #lifetimeMs: number;
  readonly #maxSessions: number;
  readonly #now: () => number;

  constructor(options: MemorySessionStorageOptions) {
    this.#lifetimeMs = options.lifetime * 1000;
    this.#maxSessions = options.maxSessions ?? MEMORY_SESSION_DEFAULTS.maxSessions;
    this.#now = options.now ?? Date.now;
  }

  /** How many sessions are kept now, expired ones not yet removed included. */
  get size(): number {
    return this.#sessions.size;
  }

  async read(id: string): Promise<SessionData | null> {
    const stored = this.#sessions.get(id);
    if (stored === undefined) return null;
    if (stored.expiresAt <= this.#now()) {
      this.#sessions.delete(id);
      return null;
    }
    return JSON.parse(stored.json) as SessionData;
  }

  async write(id: string, data: Readonly<SessionData>): Promise<void> {
    this.#store(id, JSON.stringify(data));
  }

  async touch(id: string): Promise<void> {
    const stored = this.#sessions.get(id);
    // As Redis' EXPIRE: a session that expired meanwhile is not brought back.
    if (stored === undefined || stored.expiresAt <= this.#now()) return;
    this.#store(id, stored.json);
  }

  async destroy(id: string): Promise<void> {
    this.#sessions.delete(id);
  }

  #store(id: string, json: string): void {
    const now = this.#now();
    this.#sessions.delete(id);
    this.#sessions.set(id, { json, expiresAt: now + this.#lifetimeMs });
    for (const [oldest, stored] of this.#sessions) {
      if (stored.expiresAt > now && this.#sessions.size <= this.#maxSessions) break;
      this.#sessions.delete(oldest);
    }
  }
}
