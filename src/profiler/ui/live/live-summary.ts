/** What live lists (the search page, `profiler:tail`) show of each stored profile, read from what the writer announces. */
export interface LiveSummary {
  readonly token: string;
  readonly method: string;
  /** Path and query of the stored (redacted) URL, cut as the search row's URL is. */
  readonly path: string;
  /** The client address, as the search row has it. */
  readonly ip: string;
  /** The stored (redacted) URL as the search row has it, so that a live row reads as a stored one. */
  readonly url: string;
  /** 0 when the client went away before a response was written. */
  readonly status: number;
  readonly durationMs: number;
  /** Epoch milliseconds when the request started. */
  readonly time: number;
  readonly sub: boolean;
  readonly parent: string | null;
  readonly aborted: boolean;
  /** The application's SQL queries, their milliseconds and the shapes run in a loop, as the search row has them; absent when not captured. */
  readonly queries?: number;
  readonly queryTime?: number;
  readonly nPlusOne?: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The pub/sub channel of the live summaries of the profiles stored under `prefix`. */
export function liveChannel(prefix: string): string {
  return `${prefix}profiler:live`;
}

/** Scheme and authority of an absolute URL: the live lists show where on this server, not which host name was asked for. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The live summary of a stored profile's search row: the writer announces the rows it stores,
 * already serialized for the index, and the listeners read them as live summaries. The path is
 * the row's URL (redacted, cut) without its origin.
 */
function fromSearchRow(row: Record<string, unknown>): LiveSummary | null {
  const { token, method, ip, url, statusCode, duration, time, parent, aborted, queries, queryTime, nPlusOne } = row;
  if (!isString(token) || !isString(method) || !isString(url) || !isNumber(statusCode) || !isNumber(duration) || !isNumber(time)) return null;
  if (!(parent === null || isString(parent)) || typeof aborted !== 'boolean') return null;
  const path = url.replace(ORIGIN, '');
  const summary: Mutable<LiveSummary> = {
    token,
    method,
    path: path === '' ? '/' : path,
    ip: isString(ip) ? ip : '',
    url,
    status: statusCode,
    durationMs: Math.round(duration * 100) / 100,
    time,
    sub: parent !== null,
    parent,
    aborted,
  };
  if (isNumber(queries)) summary.queries = queries;
  if (isNumber(queryTime)) summary.queryTime = queryTime;
  if (isNumber(nPlusOne)) summary.nPlusOne = nPlusOne;
  return summary;
}

/** The message announcing stored profiles: a JSON array of their search rows (each row's JSON as stored). */
export function liveMessage(rows: readonly string[]): string {
  return `[${rows.join(',')}]`;
}

/**
 * One summary read back from the channel, or `null` when it is not one (another writer's bug, a
 * stray PUBLISH): a search row, or a live summary as servers of earlier versions announced them.
 */
function readSummary(value: unknown): LiveSummary | null {
  if (typeof value !== 'object' || value === null) return null;
  const r = value as Record<string, unknown>;
  if ('statusCode' in r) return fromSearchRow(r);
  const { token, method, path, ip, url, status, durationMs, time, sub, parent, aborted, queries, queryTime, nPlusOne } = r;
  if (!isString(token) || !isString(method) || !isString(path) || !isNumber(status) || !isNumber(durationMs) || !isNumber(time)) return null;
  if (typeof sub !== 'boolean' || typeof aborted !== 'boolean' || !(parent === null || isString(parent))) return null;
  // A server of an earlier version announces neither: its rows show the path and no address.
  const summary: Mutable<LiveSummary> = { token, method, path, ip: isString(ip) ? ip : '', url: isString(url) ? url : path, status, durationMs, time, sub, parent, aborted };
  if (isNumber(queries)) summary.queries = queries;
  if (isNumber(queryTime)) summary.queryTime = queryTime;
  if (isNumber(nPlusOne)) summary.nPlusOne = nPlusOne;
  return summary;
}

/**
 * The summaries of one message of the channel (a JSON array, one message per stored batch);
 * entries that are not summaries are left out, and a message that is not an array gives none.
 */
export function parseLiveMessage(message: string): LiveSummary[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry: unknown) => {
    const summary = readSummary(entry);
    return summary === null ? [] : [summary];
  });
}
