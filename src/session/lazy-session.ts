import { LoupeError } from '../errors/loupe-error';
import { type Session } from '../http/session';
import { type Stopwatch } from '../kernel/stopwatch';
import { createSessionId, isSessionId } from './session-id';
import { type SessionData, type SessionStorage } from './session-storage';

/**
 * A session that costs nothing until a controller awaits `start()`: only then is it read from
 * storage. An id the storage does not know is replaced by a fresh one (PHP's strict mode), so a
 * client cannot choose its session id (session fixation, OWASP). With the request's stopwatch,
 * loading and saving are `session` spans of its timeline, the storage's commands inside them.
 */
export class LazySession implements Session {
  readonly #storage: SessionStorage;
  readonly #stopwatch: Stopwatch | null;
  /** The id the request's cookie carried, when it looked like one. */
  readonly requestId: string | null;
  #id: string | null;
  #attributes = new Map<string, unknown>();
  #starting: Promise<void> | null = null;
  #started = false;
  /** True when the session existed in storage when it was started. */
  #stored = false;
  #usageCount = 0;
  #dirty = false;

  constructor(storage: SessionStorage, requestId: string | null, stopwatch: Stopwatch | null = null) {
    this.#storage = storage;
    this.#stopwatch = stopwatch;
    this.requestId = requestId !== null && isSessionId(requestId) ? requestId : null;
    this.#id = this.requestId;
  }

  get id(): string | null {
    return this.#id;
  }

  get isStarted(): boolean {
    return this.#started;
  }

  get usageCount(): number {
    return this.#usageCount;
  }

  get isDirty(): boolean {
    return this.#dirty;
  }

  get isEmpty(): boolean {
    return this.#attributes.size === 0;
  }

  /** Reads the session from storage once; concurrent callers share the same read. */
  start(): Promise<void> {
    return (this.#starting ??= this.#timed('session.load', (stopwatch) => this.#load(stopwatch)));
  }

  get(key: string): unknown {
    this.#use();
    return this.#attributes.get(key);
  }

  set(key: string, value: unknown): void {
    this.#use();
    this.#attributes.set(key, value);
    this.#dirty = true;
  }

  remove(key: string): void {
    this.#use();
    if (this.#attributes.delete(key)) this.#dirty = true;
  }

  all(): Readonly<Record<string, unknown>> {
    this.#use();
    return Object.fromEntries(this.#attributes);
  }

  /**
   * Persists what this request did: writes changed attributes, deletes a session that was
   * emptied, and restarts the lifetime of one that was only read. Nothing when never started.
   */
  save(): Promise<void> {
    const id = this.#id;
    if (!this.#started || id === null) return Promise.resolve();
    if (this.#dirty) {
      this.#dirty = false;
      if (this.isEmpty) return this.#stored ? this.#timed('session.save', (stopwatch) => this.#storage.destroy(id, stopwatch)) : Promise.resolve();
      this.#stored = true;
      const data = Object.fromEntries(this.#attributes) as SessionData;
      return this.#timed('session.save', (stopwatch) => this.#storage.write(id, data, stopwatch));
    }
    return this.#stored ? this.#timed('session.save', (stopwatch) => this.#storage.touch(id, stopwatch)) : Promise.resolve();
  }

  /** Storage work as a `session` span when the session has the request's stopwatch. */
  #timed(name: string, work: (stopwatch?: Stopwatch) => Promise<void>): Promise<void> {
    return this.#stopwatch === null ? work() : this.#stopwatch.span(name, work, 'session');
  }

  async #load(stopwatch?: Stopwatch): Promise<void> {
    const data = this.requestId === null ? null : await this.#storage.read(this.requestId, stopwatch);
    if (data === null) {
      this.#id = createSessionId();
    } else {
      this.#attributes = new Map(Object.entries(data));
      this.#stored = true;
    }
    this.#started = true;
  }

  #use(): void {
    // Storage is asynchronous and these accessors are not: reading before the load would
    // answer from nothing, and writing would overwrite the stored session on save.
    if (!this.#started) {
      throw new LoupeError('LOUPE_ERR_SESSION_STORAGE', 'The session is not started: call `await session.start()` before using it.');
    }
    this.#usageCount++;
  }
}
