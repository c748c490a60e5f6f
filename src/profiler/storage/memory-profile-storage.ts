import { parseSummary } from '../parse-summary';
import { type ProfileSummary } from '../profile';
import { PROFILER_DEFAULTS } from '../profiler-config';
import { mergeSearchPages, type PageRow } from './merge-search-pages';
import {
  SEARCH_SCAN_LIMIT,
  searchRowOf,
  type BatchId,
  type BatchOutcome,
  type BatchSettlement,
  type FoundRow,
  type ProfileCriteria,
  type ProfileStorage,
  type ReadResult,
  type SearchResult,
  type StoredProfile,
} from './profile-storage';
import { summaryFilter } from './summary-filter';
import { WireBlock } from './wire-arena';

export interface MemoryProfileStorageOptions {
  /** Seconds a profile lives. */
  readonly lifetime: number;
  /** Most profiles kept; past it the oldest are removed. */
  readonly maxProfiles: number;
  /** Most bytes of profiles and search rows kept (default 256 MiB); past it the oldest are removed. */
  readonly maxBytes?: number;
}

/** One stored profile: its bytes, its search row, and the row as read back. */
interface Entry {
  readonly token: string;
  readonly time: number;
  readonly json: string | Buffer;
  readonly row: string;
  readonly found: FoundRow;
  readonly size: number;
  /** Epoch ms past which it reads as missing, as a Redis key whose TTL ran out. */
  readonly expiresAt: number;
}

/** Tombstones kept at most, the oldest forgotten first: as many as the writer remembers. */
const TOMBSTONES_KEPT = 10_000;

/** Writes that need no outcome asked for later (tests, tools) share one record, as in Redis. */
const ANONYMOUS_BATCH: BatchId = { writer: 'anonymous', number: 0 };

/** Whether `a` comes before `b` in the index: older first, then by token, as a Redis sorted set orders equal scores. */
function isBefore(a: Entry, b: Entry): boolean {
  return a.time !== b.time ? a.time < b.time : a.token < b.token;
}

/**
 * Profiles in this process's memory, for a server with no Redis: the same behaviour as
 * RedisProfileStorage (the same contract suite), the same retention — lifetime, count and bytes,
 * the oldest removed first — and nothing shared with another process. A profile given as bytes
 * is kept as they are. Every call answers at once: there is no connection to lose.
 */
export class MemoryProfileStorage implements ProfileStorage {
  readonly #lifetimeMs: number;
  readonly #maxProfiles: number;
  readonly #maxBytes: number;
  readonly #entries = new Map<string, Entry>();
  /** The entries, oldest first: the index search reads from the end and retention from the start. */
  readonly #index: Entry[] = [];
  readonly #tombstones = new Map<string, { readonly reason: string; readonly expiresAt: number }>();
  readonly #batches = new Map<string, { readonly number: number } & BatchOutcome>();
  #bytes = 0;

  constructor(options: MemoryProfileStorageOptions) {
    this.#lifetimeMs = options.lifetime * 1000;
    this.#maxProfiles = options.maxProfiles;
    this.#maxBytes = options.maxBytes ?? PROFILER_DEFAULTS.maxBytes;
  }

  /** Bytes of profiles and search rows held now. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether `token` names a stored profile or a tombstone: a token source must not hand it out. */
  has(token: string): boolean {
    return this.#entries.has(token) || this.#tombstones.has(token);
  }

  async write(profiles: readonly StoredProfile[], batch: BatchId = ANONYMOUS_BATCH): Promise<BatchOutcome> {
    const now = Date.now();
    let replaced = 0;
    for (const profile of profiles) {
      const { summary } = profile;
      // This storage prepares nothing; a profile prepared by another keeps its JSON's bytes.
      const json = profile.json instanceof WireBlock ? profile.json.jsonBytes() : profile.json;
      const row = searchRowOf(profile);
      if (this.#remove(summary.token)) replaced += 1;
      const size = Buffer.byteLength(row) + (typeof json === 'string' ? Buffer.byteLength(json) : json.length);
      this.#insert({ token: summary.token, time: summary.time, json, row, found: parseSummary(summary.token, row), size, expiresAt: now + this.#lifetimeMs });
    }
    this.#prune(now);
    while (this.#index.length > this.#maxProfiles || (this.#bytes > this.#maxBytes && this.#index.length > 0)) this.#removeOldest();
    const outcome = { stored: profiles.length, replaced };
    if (profiles.length > 0) this.#batches.set(batch.writer, { number: batch.number, ...outcome });
    return outcome;
  }

  async batchOutcome(batch: BatchId, tokens: readonly string[]): Promise<BatchSettlement> {
    const record = this.#batches.get(batch.writer);
    if (record?.number !== batch.number) return { stored: 0, replaced: 0, notStored: [...tokens] };
    return { stored: record.stored, replaced: record.replaced, notStored: [] };
  }

  async markDropped(tokens: readonly string[], reason: string): Promise<void> {
    const expiresAt = Date.now() + this.#lifetimeMs;
    for (const token of tokens) {
      this.#tombstones.delete(token);
      this.#tombstones.set(token, { reason, expiresAt });
    }
    for (const token of this.#tombstones.keys()) {
      if (this.#tombstones.size <= TOMBSTONES_KEPT) break;
      this.#tombstones.delete(token);
    }
  }

  async read(token: string): Promise<ReadResult> {
    const now = Date.now();
    this.#prune(now);
    const entry = this.#entries.get(token);
    if (entry !== undefined && entry.expiresAt > now) return { kind: 'found', json: typeof entry.json === 'string' ? entry.json : entry.json.toString('utf8') };
    const tombstone = this.#tombstones.get(token);
    if (tombstone !== undefined && tombstone.expiresAt > now) return { kind: 'dropped', reason: tombstone.reason };
    return { kind: 'missing' };
  }

  async find(criteria: ProfileCriteria): Promise<ProfileSummary[]> {
    return (await this.findRows(criteria)).flatMap((row) => (row.ok ? [row.summary] : []));
  }

  async findRows(criteria: ProfileCriteria): Promise<FoundRow[]> {
    return [...(await this.search(criteria)).rows];
  }

  /** Reads the index newest first within the time range, at most `scanLimit` rows, as the find script does. */
  async search(criteria: ProfileCriteria): Promise<SearchResult> {
    return this.#search(criteria, false);
  }

  async latest(): Promise<string | null> {
    const { rows } = await this.#search({ mainRequestsOnly: true, limit: 1, scanLimit: 500 }, true);
    const [row] = rows;
    return row?.ok === true ? row.summary.token : null;
  }

  #search(criteria: ProfileCriteria, readableOnly: boolean): SearchResult {
    this.#prune(Date.now());
    const matches = summaryFilter(criteria);
    const start = criteria.start ?? -Infinity;
    const end = criteria.end ?? Infinity;
    const bound = Math.max(1, Math.min(criteria.scanLimit ?? SEARCH_SCAN_LIMIT, SEARCH_SCAN_LIMIT));
    const found: PageRow[] = [];
    let scanned = 0;
    let complete = true;
    for (let i = this.#index.length - 1; i >= 0; i--) {
      const entry = this.#index[i];
      if (entry === undefined || entry.time < start) break;
      if (entry.time > end) continue;
      if (scanned === bound) {
        complete = false;
        break;
      }
      scanned += 1;
      // A row that cannot be read cannot be filtered: it matches whatever the filters, for the caller to report.
      if (entry.found.ok ? matches(entry.found.summary) : !readableOnly) {
        found.push({ token: entry.token, json: entry.row, time: entry.time, duration: entry.found.ok ? (entry.found.summary.duration ?? -1) : -1 });
      }
    }
    const offset = Math.max(0, Math.floor(criteria.offset ?? 0));
    const limit = Math.max(1, Math.min(criteria.limit ?? 50, 1000));
    return mergeSearchPages([{ rows: found, total: found.length, scanned, complete }], criteria.sort ?? 'time', criteria.order ?? 'desc', offset, limit);
  }

  async purge(): Promise<number> {
    const count = this.#index.length;
    this.#entries.clear();
    this.#index.length = 0;
    this.#bytes = 0;
    return count;
  }

  async count(): Promise<number> {
    this.#prune(Date.now());
    return this.#index.length;
  }

  /** Forgets the profiles whose request started more than a lifetime ago, as the write script does. */
  #prune(now: number): void {
    const oldest = now - this.#lifetimeMs;
    while ((this.#index[0]?.time ?? Infinity) < oldest) this.#removeOldest();
  }

  #insert(entry: Entry): void {
    // Requests end about in the order they started: the place is almost always at the end.
    let low = 0;
    let high = this.#index.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const other = this.#index[middle];
      if (other !== undefined && isBefore(other, entry)) low = middle + 1;
      else high = middle;
    }
    this.#index.splice(low, 0, entry);
    this.#entries.set(entry.token, entry);
    this.#bytes += entry.size;
  }

  /** Removes `token`'s profile; answers whether there was one. */
  #remove(token: string): boolean {
    const entry = this.#entries.get(token);
    if (entry === undefined) return false;
    this.#entries.delete(token);
    this.#index.splice(this.#index.indexOf(entry), 1);
    this.#bytes -= entry.size;
    return true;
  }

  #removeOldest(): void {
    const entry = this.#index.shift();
    if (entry === undefined) return;
    this.#entries.delete(entry.token);
    this.#bytes -= entry.size;
  }
}
