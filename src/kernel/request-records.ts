/** What a request recorded of one kind, in order, and how many more it left out past the limit. */
export interface RecordedEntries<TEntry extends object = object> {
  /** The entries kept, in the order recorded; at most the limit (PROFILER_MAX_ENTRIES, 500 by default). */
  readonly entries: readonly TEntry[];
  /** Entries offered once `entries` held the limit: counted, not kept. */
  readonly dropped: number;
}

/** Entries of each kind a request keeps when nothing else is configured (PROFILER_MAX_ENTRIES). */
export const DEFAULT_RECORD_LIMIT = 500;

const NONE: RecordedEntries<never> = Object.freeze({ entries: Object.freeze([]), dropped: 0 });

/**
 * Entries an application, a library or Loupe's own capture published into one request (its SQL
 * queries, outgoing HTTP calls, Redis commands, or a kind of its own), by kind: a collector
 * reads them back when the profile is collected. Bounded per kind, so that a loop of queries
 * cannot grow a request's memory or its profile without end.
 */
export class RequestRecords {
  /** Entries kept of each kind. */
  readonly limit: number;
  readonly #kinds = new Map<string, { entries: object[]; dropped: number }>();

  constructor(limit: number = DEFAULT_RECORD_LIMIT) {
    this.limit = limit;
  }

  /** Keeps `entry` under `kind`; false when the kind already holds the limit (the entry is counted). */
  add(kind: string, entry: object): boolean {
    let list = this.#kinds.get(kind);
    if (list === undefined) this.#kinds.set(kind, (list = { entries: [], dropped: 0 }));
    if (list.entries.length >= this.limit) {
      list.dropped += 1;
      return false;
    }
    list.entries.push(entry);
    return true;
  }

  /** What was recorded under `kind`; trusted to be `TEntry`, as whoever records that kind writes it. */
  get<TEntry extends object>(kind: string): RecordedEntries<TEntry> {
    return (this.#kinds.get(kind) as RecordedEntries<TEntry> | undefined) ?? NONE;
  }
}
