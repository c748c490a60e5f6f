import { type OriginFound } from './capture-origin';
import { normalizeSql } from './sql-text';

/**
 * Where a stored call was made (see captureOrigin). `found` and `library` are stored only when
 * the origin is not on the synchronous stack: profiles written before them read as `stack`.
 */
export interface StoredOrigin {
  readonly file: string;
  readonly line: number;
  readonly function: string;
  readonly found?: OriginFound;
  readonly library?: string;
}

/** What every stored call has that the analysis reads. */
export interface StoredCall {
  readonly start: number;
  /** `null`: still running when the profile was collected. */
  readonly duration: number | null;
  readonly error: string | null;
  readonly origin: StoredOrigin | null;
  /**
   * The application's frames of the call's stack, innermost first, the origin's included (at
   * most CALL_STACK_FRAMES); stored only when there is more than the origin. Profiles written
   * before it, and profiles cut to fit their byte budget, have none.
   */
  readonly stack?: readonly StoredOrigin[];
}

export interface StoredQuery extends StoredCall {
  readonly driver: string;
  readonly sql: string;
  readonly params: unknown;
  readonly database: string;
  readonly rows: number | null;
}

/** Queries of one shape (normalized SQL): how often, how long, from where. */
export interface QueryGroup {
  readonly sql: string;
  readonly count: number;
  /** Milliseconds, all of the group's queries. */
  readonly time: number;
  /** Indexes of the group's queries in the profile's list. */
  readonly queries: readonly number[];
  /** `file:line` of each place the group's queries came from. */
  readonly origins: readonly string[];
  /** Run N_PLUS_ONE times or more from one place: a query in a loop that one query could replace. */
  readonly nPlusOne: boolean;
  /**
   * N+1 only: the line of the loop that repeats the query, the first frame above the query's
   * that every call of the loop's place shares (see loopFrame); `null` where the stacks do not tell.
   */
  readonly loop: StoredOrigin | null;
}

export interface QueryAnalysis {
  readonly groups: readonly QueryGroup[];
  /** Indexes of queries that repeat an earlier one exactly (same SQL, same parameters). */
  readonly duplicates: ReadonlySet<number>;
  /** Indexes of queries at least the slow threshold long. */
  readonly slow: ReadonlySet<number>;
}

/** Times a query shape runs from one place before it is flagged N+1 (Telescope and Clockwork flag loops the same way). */
export const N_PLUS_ONE = 3;

/**
 * `file:line` of a call's place in the application; `''` where it is unknown (no origin, or only
 * its request's position), and such a call is in no N+1: it may come from anywhere in the request.
 */
export function originText(origin: StoredOrigin | null): string {
  return origin === null || origin.file === '' ? '' : `${origin.file}:${origin.line}`;
}

/** Whether the call was sent with no frame of the application's on its stack: only its request is known. */
export function isRequestOrigin(origin: StoredOrigin | null): origin is StoredOrigin & { readonly found: 'request' } {
  return origin !== null && origin.found === 'request';
}

/**
 * A request's position in words, for a call with no frame of the application's: the library
 * that sent it and the controller it ran in (`issued by drizzle-orm in listPosts`).
 */
export function requestOriginText(origin: StoredOrigin): string {
  const where = origin.function === '' ? 'during the request' : `in ${origin.function}`;
  return origin.library === undefined ? where : `issued by ${origin.library} ${where}`;
}

/** The function of an origin as V8 writes it: `async name` for a frame found among the `await`s. */
export function originFunction(origin: StoredOrigin): string {
  return origin.found === 'async' ? `async ${origin.function}`.trimEnd() : origin.function;
}

/** Indexes of calls at least `slowMs` long. */
export function slowCalls(calls: readonly StoredCall[], slowMs: number): Set<number> {
  const slow = new Set<number>();
  calls.forEach((call, index) => {
    if (call.duration !== null && call.duration >= slowMs) slow.add(index);
  });
  return slow;
}

/** Milliseconds of all finished calls. */
export function totalTime(calls: readonly StoredCall[]): number {
  return Math.round(calls.reduce((sum, call) => sum + (call.duration ?? 0), 0) * 1000) / 1000;
}

/**
 * The frame of the function an `await` resumes, in a call made after one: the outermost frame of
 * its synchronous stack, the one under the first `async` frame. `undefined` when the stack holds
 * no `async` frame (a loop that does not await), or its very origin is one (an ORM's await).
 */
function resumedFrame(stack: readonly StoredOrigin[]): StoredOrigin | undefined {
  const firstAsync = stack.findIndex((frame) => frame.found === 'async');
  return firstAsync > 0 ? stack[firstAsync - 1] : undefined;
}

/**
 * The line of the loop that repeats `calls` (made from one place), compared by `file:line`. A loop
 * that awaits each call is the function each call after the first resumes in (see resumedFrame):
 * its line, which may be the origin's own (`for (…) await pool.query(…)` on one line). Else the
 * first frame above the origin's that every call's stack holds. `null` when a call has no stack
 * (an old profile, one cut to its budget, a call with no caller of the application's) or none is shared.
 */
export function loopFrame(calls: readonly StoredCall[]): StoredOrigin | null {
  const stacks = calls.map((call) => call.stack);
  const [first, ...rest] = stacks;
  if (first === undefined || rest.length === 0 || rest.some((stack) => stack === undefined)) return null;
  const places = stacks.map((stack) => new Set((stack ?? []).map(originText)));
  const shared = (frame: StoredOrigin): boolean => places.every((place) => place.has(originText(frame)));
  const resumed = rest.map((stack) => resumedFrame(stack ?? []));
  const [loop] = resumed;
  if (loop !== undefined && resumed.every((frame) => frame !== undefined && originText(frame) === originText(loop)) && shared(loop)) return loop;
  return first.slice(1).find(shared) ?? null;
}

/** The loop of an N+1 group: that of its most repeated place. */
function groupLoop(queries: readonly StoredQuery[], members: readonly number[], perOrigin: ReadonlyMap<string, number>): StoredOrigin | null {
  const [place = ''] = [...perOrigin].filter(([origin]) => origin !== '').sort((a, b) => b[1] - a[1])[0] ?? [];
  const calls = members.flatMap((index) => {
    const query = queries[index];
    return query !== undefined && originText(query.origin) === place ? [query] : [];
  });
  return loopFrame(calls);
}

/**
 * Groups queries by their normalized SQL, flags N+1 (a shape run N_PLUS_ONE times or more from
 * the same `file:line`; never queries whose place is unknown), exact duplicates and slow queries, as Symfony's Doctrine panel,
 * Telescope and Django Debug Toolbar do. Pure: the panel, the CLI and the search index agree.
 */
export function analyzeQueries(queries: readonly StoredQuery[], slowMs: number): QueryAnalysis {
  const groups = new Map<string, { sql: string; time: number; queries: number[]; perOrigin: Map<string, number> }>();
  const seen = new Set<string>();
  const duplicates = new Set<number>();
  queries.forEach((query, index) => {
    const shape = normalizeSql(query.sql);
    let group = groups.get(shape);
    if (group === undefined) groups.set(shape, (group = { sql: shape, time: 0, queries: [], perOrigin: new Map() }));
    group.time += query.duration ?? 0;
    group.queries.push(index);
    const origin = originText(query.origin);
    group.perOrigin.set(origin, (group.perOrigin.get(origin) ?? 0) + 1);
    const exact = `${query.database}\u0000${query.sql}\u0000${JSON.stringify(query.params)}`;
    if (seen.has(exact)) duplicates.add(index);
    else seen.add(exact);
  });
  const list = [...groups.values()]
    .map(({ sql, time, queries: members, perOrigin }) => {
      // Calls with no known place are not one loop: they may come from anywhere (an ORM's, a library's own).
      const nPlusOne = [...perOrigin].some(([origin, count]) => origin !== '' && count >= N_PLUS_ONE);
      return {
        sql,
        count: members.length,
        time: Math.round(time * 1000) / 1000,
        queries: members,
        origins: [...perOrigin.keys()].filter((origin) => origin !== ''),
        nPlusOne,
        loop: nPlusOne ? groupLoop(queries, members, perOrigin) : null,
      };
    })
    .sort((a, b) => b.count - a.count || b.time - a.time);
  return { groups: list, duplicates, slow: slowCalls(queries, slowMs) };
}
