import { type ProfileVersion } from './profiler-config';
import { ROUTER_COLLECTOR, type RouterCollectorData } from './collect/collectors/router-collector';
import { ioCounters } from './app-io/io-counters';
import { cutText } from './collect/cut-text';

/** One collector's entry in a stored profile: a JSON object. */
export type CollectorEntry = Readonly<Record<string, unknown>>;

/**
 * Everything Loupe stores for one request (main or sub-request), as JSON: an envelope that
 * every reader understands (what search, lists and summaries need) and one entry per
 * collector, as Symfony's Profile and its data collectors.
 */
export interface Profile {
  /** The schema version it was stored with. */
  readonly version: ProfileVersion;
  /** Six lowercase hex digits: the `X-Debug-Token` and the key of `/_profiler/{token}`. */
  readonly token: string;
  /** The main request's token for an error sub-request's profile; `null` for a main request. */
  readonly parent: string | null;
  /** The tokens of the error sub-requests' profiles; empty when there is none. */
  readonly children: readonly string[];
  /** `main` for a request from a client, `sub` for an error sub-request. */
  readonly type: 'main' | 'sub';
  /** The method the request was handled with (after `X-HTTP-Method-Override`), e.g. `GET`. */
  readonly method: string;
  /** Absolute, with the values of secret-looking query parameters replaced. */
  readonly url: string;
  /** The client's address (RequestData.remoteAddress). */
  readonly ip: string;
  /** 0 when the client disconnected before a response was written. */
  readonly statusCode: number;
  /** Epoch milliseconds when the request started. */
  readonly time: number;
  /** Milliseconds from the copied request to the end of the machine. */
  readonly duration: number;
  /** True when the client disconnected before the response was written. */
  readonly aborted: boolean;
  /** Each collector's data under its name. */
  readonly collectors: Readonly<Record<string, CollectorEntry>>;
  /** What profiling this request cost, in milliseconds; the profiler listener fills it in last. */
  profilerCost: { collect: number };
  /** Present when the profile was cut to fit PROFILER_MAX_PROFILE_BYTES. */
  readonly cut?: ProfileCut;
}

/** What was cut from a profile to fit the byte budget. */
export interface ProfileCut {
  /** Bytes of the whole profile's JSON before cutting. */
  readonly originalBytes: number;
  /** Strings (values and keys) cut short, each ending with a `… (cut: N more bytes)` marker. */
  readonly strings: number;
  /** Collector entries left out entirely, largest first. */
  readonly collectors: readonly string[];
  /** Captured calls whose stack was left out (their origin is kept); absent when none was. */
  readonly stacks?: number;
}

/** Longest URL, in serialized bytes, kept in a search row (search by URL looks at this much). */
export const SUMMARY_URL_BYTES = 1_024;

/** One row of the search index: what the list and the filters need. */
export interface ProfileSummary {
  /** The profile's token. */
  readonly token: string;
  /** The main request's token for a sub-request's row; `null` for a main request. */
  readonly parent: string | null;
  /** The client's address, cut to 1,024 bytes. */
  readonly ip: string;
  /** The request's method, cut to 1,024 bytes. */
  readonly method: string;
  /** The profile's redacted URL, cut to 1,024 bytes (what search by URL looks at). */
  readonly url: string;
  /** Epoch milliseconds when the request started. */
  readonly time: number;
  /** The response's status; 0 when the client disconnected before it was written. */
  readonly statusCode: number;
  /** Milliseconds (the profile's `duration`); absent in rows stored before Loupe indexed it. */
  readonly duration?: number;
  /** The client went away; absent in older rows, where status 0 says it. */
  readonly aborted?: boolean;
  /** The matched route's name, `null` when none matched; absent in older rows. */
  readonly route?: string | null;
  /**
   * The application's SQL queries, their milliseconds, and the query shapes flagged N+1 (what the
   * N+1 and least-queries filters read); with the HTTP calls and Redis commands, present only
   * when the profile has the entry of that collector, so that rows stay small and older ones parse.
   */
  readonly queries?: number;
  /** Milliseconds the application's SQL queries took in all. */
  readonly queryTime?: number;
  /** Query shapes flagged N+1: the same query run in a loop. */
  readonly nPlusOne?: number;
  /** Outgoing HTTP calls the application made. */
  readonly httpCalls?: number;
  /** Redis commands the application sent (Loupe's own are not counted). */
  readonly redisCommands?: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The search row of `profile`: what the writer indexes and the page shows of a child profile. */
export function summarize(profile: Profile): ProfileSummary {
  const { token, parent, ip, method, url, time, statusCode, duration, aborted } = profile;
  const route = collectorData<RouterCollectorData>(profile, ROUTER_COLLECTOR)?.route;
  const summary: Mutable<ProfileSummary> = {
    token,
    parent,
    ip: cutText(ip, SUMMARY_URL_BYTES),
    method: cutText(method, SUMMARY_URL_BYTES),
    url: cutText(url, SUMMARY_URL_BYTES),
    time,
    statusCode,
    duration,
    aborted,
    route: typeof route === 'string' ? cutText(route, SUMMARY_URL_BYTES) : null,
  };
  // The I/O counters the profile has (see ProfileSummary), set one by one: spreading an object
  // per counter cost more than the rest of the row.
  const io = ioCounters(profile);
  if (io.queries !== null) summary.queries = io.queries;
  if (io.queryTime !== null) summary.queryTime = io.queryTime;
  if (io.nPlusOne !== null) summary.nPlusOne = io.nPlusOne;
  if (io.httpCalls !== null) summary.httpCalls = io.httpCalls;
  if (io.redisCommands !== null) summary.redisCommands = io.redisCommands;
  return summary;
}

/**
 * The entry the collector `name` stored in `profile`, or `undefined` when it has none (as
 * Symfony's Profile::getCollector). The parser checked that an entry is an object of a
 * version-1 profile; that it is `TData` is trusted, as the collector of that name wrote it.
 */
export function collectorData<TData extends object>(profile: Profile, name: string): TData | undefined {
  // Own keys only: a collector named like an Object.prototype member must not find one.
  return Object.hasOwn(profile.collectors, name) ? (profile.collectors[name] as TData | undefined) : undefined;
}
