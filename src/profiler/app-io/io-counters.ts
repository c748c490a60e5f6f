import {
  DATABASE_COLLECTOR,
  HTTP_CLIENT_COLLECTOR,
  REDIS_COLLECTOR,
  type CallTotals,
  type DatabaseCollectorData,
} from '../collect/collectors/app-io-collectors';

/**
 * The totals of the application's own I/O in one profile, each `null` when the profile has no
 * entry of its collector (stored before Loupe captured I/O, or with the collector left out).
 */
export interface IoCounters {
  readonly queries: number | null;
  /** Milliseconds of all finished queries. */
  readonly queryTime: number | null;
  /** Query shapes flagged N+1 (see analyzeQueries). */
  readonly nPlusOne: number | null;
  readonly httpCalls: number | null;
  readonly httpTime: number | null;
  readonly redisCommands: number | null;
  readonly redisTime: number | null;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** What the counters read of a profile: its collectors' entries (profile.ts imports this file for summarize). */
interface ProfileEntries {
  readonly collectors: Readonly<Record<string, object>>;
}

/** The entry of collector `name`, as collectorData reads it. */
function entryOf<TData extends object>(profile: ProfileEntries, name: string): TData | undefined {
  return Object.hasOwn(profile.collectors, name) ? (profile.collectors[name] as TData | undefined) : undefined;
}

/** `count` and `time` of a collector's entry; a damaged entry counts as absent rather than as zero. */
function totalsOf(profile: ProfileEntries, name: string): { count: number | null; time: number | null } {
  const data = entryOf<Partial<CallTotals>>(profile, name);
  return { count: isNumber(data?.count) ? data.count : null, time: isNumber(data?.time) ? data.time : null };
}

/**
 * What the search row, the compare page and `profiler:diff` read of the I/O collectors: their
 * totals only, which the collectors computed when the request ended.
 */
export function ioCounters(profile: ProfileEntries): IoCounters {
  const db = totalsOf(profile, DATABASE_COLLECTOR);
  const nPlusOne = entryOf<Partial<DatabaseCollectorData>>(profile, DATABASE_COLLECTOR)?.nPlusOne;
  const http = totalsOf(profile, HTTP_CLIENT_COLLECTOR);
  const redis = totalsOf(profile, REDIS_COLLECTOR);
  return {
    queries: db.count,
    queryTime: db.time,
    nPlusOne: db.count === null ? null : isNumber(nPlusOne) ? nPlusOne : 0,
    httpCalls: http.count,
    httpTime: http.time,
    redisCommands: redis.count,
    redisTime: redis.time,
  };
}
