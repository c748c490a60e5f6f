import { randomBytes } from 'node:crypto';
import { createActor, fromPromise, type Actor } from 'xstate';
import { profileWriterMachine } from '../../../machines/profile-writer.machine';
import { type LivePublisher } from '../ui/live/live-publisher';
import { summarize, type Profile } from '../profile';
import { encodeWithinBudget } from './profile-budget';
import { type BatchId, type ProfileStorage, type StoredProfile } from '../storage/profile-storage';
import { PROFILER_DEFAULTS } from '../profiler-config';

export interface ProfileWriterOptions {
  readonly storage: ProfileStorage;
  /**
   * The storage's connection, whose `ready` and `close` events drive the writer (the writer's own
   * Redis client); without one, as for memory, the storage is always ready.
   */
  readonly connection?: StorageConnection;
  /** Profiles waiting at most; past it new ones are dropped. */
  readonly maxQueue?: number;
  readonly batchSize?: number;
  /** Most bytes of one stored profile (default 64 KiB): longer values are cut to fit. */
  readonly maxProfileBytes?: number;
  /** Told about every drop, to log it. */
  readonly onDrop?: (count: number, reason: string) => void;
  /** Announces each batch once it is stored (live lists); best effort, never waited for. */
  readonly live?: LivePublisher;
}

/** What the writer needs of a storage's connection: whether it is up, and word when that changes (an ioredis client is one). */
export interface StorageConnection {
  /** `ready` while commands can be sent. */
  readonly status: string;
  on(event: 'ready' | 'close', listener: () => void): unknown;
}

/** The writer's counters, shown in the panel and the status API. */
export interface WriterStats {
  queued: number;
  stored: number;
  dropped: number;
  replaced: number;
  batches: number;
  /** Profiles of a batch whose write failed and whose outcome Redis has not told yet. */
  unconfirmed: number;
  lastError: string | null;
  state: string;
}

const TOMBSTONES_KEPT = 10_000;

/** A profile waiting to be stored: already serialized (and prepared for its storage), so that its objects die young. */
interface QueuedProfile extends StoredProfile {
  readonly token: string;
  /** Its search row's JSON: stored in the index, then announced to the live lists. */
  readonly row: string;
}

/**
 * Takes finished profiles from kernel.terminate and stores them through a long-lived actor
 * (machines/profile-writer.machine.ts): a bounded queue, batched writes, drops counted.
 * Serializing happens as a profile is queued, after the response was sent: once per profile, to
 * the bytes stored and its search row. The queue holds those, not the profile's objects, which
 * would otherwise live on (and be copied by the garbage collector) until their batch is written.
 */
export class ProfileWriter {
  readonly stats: WriterStats = { queued: 0, stored: 0, dropped: 0, replaced: 0, batches: 0, unconfirmed: 0, lastError: null, state: 'idle' };
  readonly #queue: QueuedProfile[] = [];
  readonly #maxQueue: number;
  readonly #batchSize: number;
  readonly #storage: ProfileStorage;
  readonly #onDrop: (count: number, reason: string) => void;
  readonly #recentlyDropped = new Map<string, string>();
  /** Dropped tokens still to be marked in Redis, with why. */
  #pendingTombstones = new Map<string, string>();
  readonly #maxProfileBytes: number;
  readonly #live: LivePublisher | undefined;
  /** This writer's id in the batch records Redis keeps (one per writer: the last batch stored). */
  readonly #id = randomBytes(6).toString('hex');
  #batchNumber = 0;
  #inFlight: QueuedProfile[] = [];
  /** The batch whose write failed: stored or not, Redis says once it answers again. */
  #held: { readonly batch: BatchId; readonly profiles: QueuedProfile[]; readonly reason: string } | null = null;
  #idleWaiters: (() => void)[] = [];
  readonly #actor: Actor<typeof profileWriterMachine>;

  constructor(options: ProfileWriterOptions) {
    this.#storage = options.storage;
    this.#maxQueue = options.maxQueue ?? 20_000;
    this.#batchSize = options.batchSize ?? 256;
    this.#maxProfileBytes = options.maxProfileBytes ?? PROFILER_DEFAULTS.maxProfileBytes;
    this.#onDrop = options.onDrop ?? (() => undefined);
    this.#live = options.live;
    const machine = profileWriterMachine.provide({
      actions: {
        dropQueued: () => this.#drop(this.#queue.splice(0), 'Redis was unavailable when the profile was to be stored.'),
        holdFailedBatch: ({ event }) => {
          this.stats.lastError = 'error' in event ? String(event.error) : 'unknown error';
          const profiles = this.#inFlight.splice(0);
          this.#held = { batch: { writer: this.#id, number: this.#batchNumber }, profiles, reason: `Storing the profile failed: ${this.stats.lastError}` };
          this.stats.unconfirmed = profiles.length;
        },
      },
      guards: { hasQueued: () => this.#queue.length > 0, isStorageReady: () => options.connection === undefined || options.connection.status === 'ready' },
      actors: {
        writeBatch: fromPromise(({ signal }) => this.#writeQueued(signal)),
        recover: fromPromise(() => this.#recover()),
      },
    });
    this.#actor = createActor(machine, {
      // The retry timer of the unavailable state must not keep a stopping process alive.
      clock: {
        setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
        clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
      },
    });
    this.#actor.subscribe({
      next: (snapshot) => {
        this.stats.state = String(snapshot.value);
        if (snapshot.value !== 'writing' && snapshot.value !== 'recovering' && this.#queue.length === 0) this.#notifyIdle();
      },
      error: (error) => {
        this.stats.lastError = String(error);
      },
    });
    this.#actor.start();
    const { connection } = options;
    if (connection === undefined) return;
    if (connection.status !== 'ready') this.#actor.send({ type: 'storage.lost' });
    connection.on('ready', () => this.#actor.send({ type: 'storage.ready' }));
    connection.on('close', () => this.#actor.send({ type: 'storage.lost' }));
  }

  /** False while a profile collected now would be dropped: the storage unreachable, queue full, or stopped. */
  get isAvailable(): boolean {
    const { state } = this.stats;
    return state !== 'unavailable' && state !== 'probing' && state !== 'stopped' && this.#queue.length < this.#maxQueue;
  }

  /** Serializes a finished profile and queues it; never waits. */
  enqueue(profile: Profile): void {
    if (this.stats.state === 'stopped') {
      this.#drop([profile], 'The server was shutting down.');
      return;
    }
    if (this.#queue.length >= this.#maxQueue) {
      this.#drop([profile], 'The profile queue was full.');
      return;
    }
    let queued: QueuedProfile;
    try {
      const summary = summarize(profile);
      const row = JSON.stringify(summary);
      const stored: StoredProfile = { summary, row, json: encodeWithinBudget(profile, this.#maxProfileBytes) };
      queued = { token: profile.token, summary, row, json: this.#storage.prepare?.(stored) ?? stored.json };
    } catch (error) {
      this.#drop([profile], `The profile could not be serialized: ${String(error)}`);
      return;
    }
    this.#queue.push(queued);
    this.stats.queued = this.#queue.length;
    if (this.#queue.length === 1) this.#actor.send({ type: 'profiles.queued' });
  }

  /** Why a token handed out by this process has no profile, if it was dropped recently. */
  droppedReason(token: string): string | undefined {
    return this.#recentlyDropped.get(token);
  }

  /** Resolves once nothing is queued or being written (or the storage is unavailable). */
  whenIdle(): Promise<void> {
    const state = this.stats.state;
    if (this.#queue.length === 0 && state !== 'writing' && state !== 'recovering') return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Writes what is queued (bounded by `graceMs`), then stops the actor. */
  async stop(graceMs = 5_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.whenIdle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.#actor.send({ type: 'writer.stop' });
  }

  /**
   * Writes batches, one at a time, until the queue is empty (or the writer stops): under load the
   * writer stays in `writing` rather than going through the machine for every batch.
   */
  async #writeQueued(signal: AbortSignal): Promise<void> {
    while (this.#queue.length > 0 && !signal.aborted) await this.#writeBatch();
  }

  async #writeBatch(): Promise<void> {
    this.#inFlight = this.#queue.splice(0, this.#batchSize);
    this.stats.queued = this.#queue.length;
    this.#batchNumber += 1;
    const { stored, replaced } = await this.#storage.write(this.#inFlight, { writer: this.#id, number: this.#batchNumber });
    this.#live?.publish(this.#inFlight.map((profile) => profile.row));
    this.#inFlight = [];
    this.#count(stored, replaced);
    // Drops while Redis was up (a full queue) are marked along with the next batch.
    if (this.#pendingTombstones.size > 0) await this.#writeTombstones();
  }

  #count(stored: number, replaced: number): void {
    this.stats.stored += stored;
    this.stats.replaced += replaced;
    this.stats.batches += 1;
  }

  /**
   * Settles the held batch, then marks dropped tokens. A write that timed out may still have run
   * (Redis was slow or paused, not gone), and on a cluster some of its parts may have been stored
   * while the master of another was failing over: each profile is counted stored or dropped by
   * what Redis recorded for its part, once, never both.
   */
  async #recover(): Promise<void> {
    const held = this.#held;
    if (held !== null) {
      const outcome = await this.#storage.batchOutcome(held.batch, held.profiles.map((profile) => profile.token));
      // A recovery cut short by a lost connection may still get its answer: settle the batch once.
      if (this.#held === held) {
        this.#held = null;
        this.stats.unconfirmed = 0;
        // Each part of the batch (one per group of keys) was stored or not on its own.
        const notStored = new Set(outcome.notStored);
        const dropped = held.profiles.filter((profile) => notStored.has(profile.token));
        if (dropped.length < held.profiles.length) this.#count(outcome.stored, outcome.replaced);
        this.#drop(dropped, held.reason);
      }
    }
    await this.#writeTombstones();
  }

  async #writeTombstones(): Promise<void> {
    const pending = this.#pendingTombstones;
    this.#pendingTombstones = new Map();
    const byReason = new Map<string, string[]>();
    for (const [token, reason] of pending) byReason.set(reason, [...(byReason.get(reason) ?? []), token]);
    try {
      for (const [reason, tokens] of byReason) await this.#storage.markDropped(tokens, reason);
    } catch (error) {
      // Refused (out of memory) or unanswered: kept, oldest first, for the next recovery.
      this.#pendingTombstones = new Map([...pending, ...this.#pendingTombstones]);
      throw error;
    }
  }

  #drop(profiles: readonly { readonly token: string }[], reason: string): void {
    if (profiles.length === 0) return;
    this.stats.dropped += profiles.length;
    this.stats.queued = this.#queue.length;
    for (const { token } of profiles) {
      this.#recentlyDropped.set(token, reason);
      this.#pendingTombstones.set(token, reason);
    }
    while (this.#recentlyDropped.size > TOMBSTONES_KEPT) {
      const oldest = this.#recentlyDropped.keys().next().value;
      if (oldest === undefined) break;
      this.#recentlyDropped.delete(oldest);
    }
    for (const token of this.#pendingTombstones.keys()) {
      if (this.#pendingTombstones.size <= TOMBSTONES_KEPT) break;
      this.#pendingTombstones.delete(token);
    }
    this.#onDrop(profiles.length, reason);
    this.#notifyIdle();
  }

  #notifyIdle(): void {
    if (this.#queue.length > 0 || this.stats.state === 'writing' || this.stats.state === 'recovering') return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
