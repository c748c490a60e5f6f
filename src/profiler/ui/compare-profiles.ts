import { ioCounters, type IoCounters } from '../app-io/io-counters';
import { queryShapeChanges, type QueryShapeChanges } from '../app-io/query-shape-changes';
import { eventsOf } from '../collect/collectors/events-view';
import { machineOf } from '../collect/collectors/machine-view';
import { roundMs } from '../collect/collectors/timings';
import { ROUTER_COLLECTOR, type RouterCollectorData } from '../collect/collectors/router-collector';
import { collectorData, type Profile } from '../profile';

/** One timing of both profiles: `null` where a profile has no such entry. */
export interface TimingDiff {
  readonly name: string;
  readonly a: number | null;
  readonly b: number | null;
  /** `b - a` in milliseconds, when both have it. */
  readonly diff: number | null;
  /** The difference relative to `a`, in percent, when both have it and `a` is not 0. */
  readonly percent: number | null;
}

/** A count or a time of the application's I/O in both profiles; more is worse for each. */
export interface IoDiff extends TimingDiff {
  readonly unit: 'count' | 'ms';
}

/** What the comparison shows of each profile. */
export interface ComparedSide {
  readonly token: string;
  readonly method: string;
  readonly url: string;
  readonly statusCode: number;
  readonly route: string | null;
  readonly time: number;
  readonly duration: number;
}

/** Two profiles side by side: `b` measured against `a`. */
export interface ProfileComparison {
  readonly a: ComparedSide;
  readonly b: ComparedSide;
  readonly total: TimingDiff;
  /** Every state of the request machine (the kernel phases among them), in the order they ran. */
  readonly states: readonly TimingDiff[];
  /** The listeners whose time changed most, by phase, largest change first. */
  readonly listeners: readonly TimingDiff[];
  /** The application's queries, HTTP calls and Redis commands, counts and times; rows neither profile recorded are left out. */
  readonly io: readonly IoDiff[];
  /** The query shapes B ran and A did not (added), and A ran and B did not (removed); `null` when either has no Database entry. */
  readonly queryShapes: QueryShapeChanges | null;
}

/** Listeners listed at most. */
export const COMPARED_LISTENERS = 10;

export function timingDiff(name: string, a: number | null, b: number | null): TimingDiff {
  const both = a !== null && b !== null;
  return {
    name,
    a,
    b,
    diff: both ? roundMs(b - a) : null,
    percent: both && a !== 0 ? Math.round(((b - a) / a) * 1000) / 10 : null,
  };
}

function side(profile: Profile): ComparedSide {
  const { token, method, url, statusCode, time, duration } = profile;
  return { token, method, url, statusCode, time, duration, route: collectorData<RouterCollectorData>(profile, ROUTER_COLLECTOR)?.route ?? null };
}

/** Timings by name, in order; a name met again is told apart by its number (`name #2`). */
function timings(records: readonly { readonly name: string; readonly duration: number }[]): Map<string, number> {
  const out = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const record of records) {
    const n = (seen.get(record.name) ?? 0) + 1;
    seen.set(record.name, n);
    out.set(n === 1 ? record.name : `${record.name} #${n}`, record.duration);
  }
  return out;
}

function pair(a: Map<string, number>, b: Map<string, number>): TimingDiff[] {
  const names = [...a.keys(), ...[...b.keys()].filter((name) => !a.has(name))];
  return names.map((name) => timingDiff(name, a.get(name) ?? null, b.get(name) ?? null));
}

/** Each listener's total time per phase (`kernel.request ProfilerListener`). */
function listenerTimes(profile: Profile): Map<string, number> {
  const out = new Map<string, number>();
  for (const listener of eventsOf(profile)?.listeners ?? []) {
    const key = `${listener.phase} ${listener.name}`;
    out.set(key, roundMs((out.get(key) ?? 0) + listener.duration));
  }
  return out;
}

/** The I/O rows, in the order shown, with the counter each reads. */
const IO_ROWS: readonly (readonly [string, keyof IoCounters, IoDiff['unit']])[] = [
  ['SQL queries', 'queries', 'count'],
  ['Query time', 'queryTime', 'ms'],
  ['N+1 query shapes', 'nPlusOne', 'count'],
  ['HTTP calls', 'httpCalls', 'count'],
  ['HTTP time', 'httpTime', 'ms'],
  ['Redis commands', 'redisCommands', 'count'],
  ['Redis time', 'redisTime', 'ms'],
];

function ioDiffs(a: Profile, b: Profile): IoDiff[] {
  const [left, right] = [ioCounters(a), ioCounters(b)];
  return IO_ROWS.flatMap(([name, key, unit]) => (left[key] === null && right[key] === null ? [] : [{ ...timingDiff(name, left[key], right[key]), unit }]));
}

/** How far apart a timing is: a listener that ran in one profile only counts with its whole time. */
function change(row: TimingDiff): number {
  return Math.abs(row.diff ?? row.a ?? row.b ?? 0);
}

/**
 * `b` against `a` (what `/_profiler/{a}/compare/{b}` and `profiler:diff a b` show): the total,
 * every machine state, the listeners whose time changed most, the application's I/O and the
 * query shapes added and removed.
 */
export function compareProfiles(a: Profile, b: Profile): ProfileComparison {
  const states = (profile: Profile): Map<string, number> => timings(machineOf(profile)?.states ?? []);
  return {
    a: side(a),
    b: side(b),
    total: timingDiff('total', a.duration, b.duration),
    states: pair(states(a), states(b)),
    listeners: pair(listenerTimes(a), listenerTimes(b))
      .sort((x, y) => change(y) - change(x))
      .slice(0, COMPARED_LISTENERS),
    io: ioDiffs(a, b),
    queryShapes: queryShapeChanges(a, b),
  };
}

/** Under this many milliseconds a difference shows as 0.00 ms: no change, with no percent (−0.00 ms (−25 %) says nothing). */
export const NO_CHANGE_MS = 0.005;

/** Whether a timing row changed by less than can be shown: both sides have it and they are equal to the hundredth of a ms. */
export function isUnchanged(row: TimingDiff): boolean {
  return row.diff !== null && Math.abs(row.diff) < NO_CHANGE_MS;
}
