import { type ProfileSummary } from '../profile';
import { type WireBlock } from './wire-arena';

/** A profile to store: its search row and its serialized JSON. */
export interface StoredProfile {
  readonly summary: ProfileSummary;
  /** The summary's JSON, the search row stored, when it is serialized already (the writer's, which announces it to live lists too); else the storage serializes the summary. */
  readonly row?: string;
  /**
   * The profile's JSON, as text or as its UTF-8 bytes, stored as they are (the writer hands a small
   * profile over as text, a larger one as bytes: see encodeWithinBudget); or, once a storage
   * prepared it (`prepare`), already encoded for that storage's wire.
   */
  readonly json: string | Buffer | WireBlock;
}

/** The search row a storage keeps of `profile`: the one given, else its summary serialized. */
export function searchRowOf(profile: StoredProfile): string {
  return profile.row ?? JSON.stringify(profile.summary);
}

/** Search filters; every one optional, and absent means no filter. `url` is a substring, the others exact. */
export interface ProfileCriteria {
  readonly ip?: string;
  readonly method?: string;
  readonly url?: string;
  readonly statusCode?: number;
  /** A status class, 1 to 5 for 1xx to 5xx. */
  readonly statusClass?: number;
  /** The matched route's name. */
  readonly route?: string;
  /** Only requests whose client went away (status 0, or aborted after the response). */
  readonly aborted?: boolean;
  /** Only requests with a query shape flagged N+1 (a query run in a loop). */
  readonly nPlusOne?: boolean;
  /** Only requests that ran at least this many SQL queries; rows without the count have none. */
  readonly minQueries?: number;
  /** Leave out error sub-requests. */
  readonly mainRequestsOnly?: boolean;
  /** Leave out requests for `/favicon.ico`, which browsers send on their own. */
  readonly hideFavicon?: boolean;
  /** Epoch milliseconds, inclusive. */
  readonly start?: number;
  /** Epoch milliseconds, inclusive. */
  readonly end?: number;
  /** `time` (the default) or `duration`. */
  readonly sort?: SearchSort;
  /** `desc` (the default: newest or slowest first) or `asc`. */
  readonly order?: SearchOrder;
  /** Matches skipped before the first row answered (pagination). */
  readonly offset?: number;
  readonly limit?: number;
  /** Rows of the index read at most, below SEARCH_SCAN_LIMIT: for a lookup that needs only recent rows. */
  readonly scanLimit?: number;
}

export const SEARCH_SORTS = ['time', 'duration'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];
export const SEARCH_ORDERS = ['desc', 'asc'] as const;
export type SearchOrder = (typeof SEARCH_ORDERS)[number];

/** Rows of the search index read at most per search: what bounds its cost in Redis. */
export const SEARCH_SCAN_LIMIT = 10_000;

/** One page of search results and how many matched in all. */
export interface SearchResult {
  /** The page's rows, in the order asked for; unreadable rows in their place. */
  readonly rows: readonly FoundRow[];
  /** How many rows matched among those read. */
  readonly total: number;
  /** How many rows of the index were read (at most SEARCH_SCAN_LIMIT). */
  readonly scanned: number;
  /** False when the time range holds more rows than were read: older ones were not searched. */
  readonly complete: boolean;
}

/** Names one batch of one writer, so that its outcome can be asked for after a timeout. */
export interface BatchId {
  /** The writer's id, random per process. */
  readonly writer: string;
  /** The writer's batch counter. */
  readonly number: number;
}

/** How many profiles a batch stored, and how many of them replaced one under the same token. */
export interface BatchOutcome {
  readonly stored: number;
  readonly replaced: number;
}

/**
 * What Redis recorded of a batch whose write failed: the counts of the parts it stored, and the
 * tokens of the parts it has no record of, which were not stored. A batch is written in parts,
 * one per group of keys (one part on a single Redis), each recorded on its own.
 */
export interface BatchSettlement extends BatchOutcome {
  readonly notStored: readonly string[];
}

/** A search row: its summary, or why the row stored under `token` cannot be read. */
export type FoundRow =
  | { readonly ok: true; readonly summary: ProfileSummary }
  | { readonly ok: false; readonly token: string; readonly error: string };

/** What a read finds under a token. */
export type ReadResult =
  | { readonly kind: 'found'; readonly json: string }
  | { readonly kind: 'dropped'; readonly reason: string }
  | { readonly kind: 'missing' };

/**
 * Where profiles live. Every implementation passes the same contract suite
 * (test/profiler/profile-storage-contract.ts).
 */
export interface ProfileStorage {
  /** Stores a batch; answers how many replaced a profile still stored under the same token. */
  write(profiles: readonly StoredProfile[], batch?: BatchId): Promise<BatchOutcome>;
  /**
   * The profile's JSON made ready to be written, as the profile is queued, where a storage gains by
   * it (Redis: its arguments encoded at once into pooled bytes, see wire-arena.ts). A profile with
   * a prepared JSON is written by the storage that prepared it, once.
   */
  prepare?(profile: StoredProfile): StoredProfile['json'];
  /**
   * What was stored of `batch`, whose profiles had `tokens`: each part counts when its record
   * names the batch (it is the last its writer stored there), else its tokens are not stored.
   * Asked after a write that failed or timed out: Redis runs a connection's commands in order, so
   * on the same connection the answer comes after the write itself ran or failed.
   */
  batchOutcome(batch: BatchId, tokens: readonly string[]): Promise<BatchSettlement>;
  /** Marks tokens that were handed out but whose profiles could not be stored. */
  markDropped(tokens: readonly string[], reason: string): Promise<void>;
  read(token: string): Promise<ReadResult>;
  /** Matching summaries, newest first; rows that cannot be read are left out. */
  find(criteria: ProfileCriteria): Promise<ProfileSummary[]>;
  /**
   * Matching rows, newest first, with those that cannot be read (which no filter can judge) in
   * their place; they count towards `limit`.
   */
  findRows(criteria: ProfileCriteria): Promise<FoundRow[]>;
  /** One page of `findRows`, with the number of matches in all (see SEARCH_SCAN_LIMIT). */
  search(criteria: ProfileCriteria): Promise<SearchResult>;
  /** The newest main-request token, or `null`. */
  latest(): Promise<string | null>;
  /** Removes every profile; answers how many there were. */
  purge(): Promise<number>;
  /** How many profiles are indexed. */
  count(): Promise<number>;
}
