import { analyzeQueries, originText, type StoredQuery } from '../app-io/analyze-calls';
import { DATABASE_COLLECTOR, type DatabaseCollectorData } from '../collect/collectors/app-io-collectors';
import { ROUTER_COLLECTOR, type RouterCollectorData } from '../collect/collectors/router-collector';
import { collectorData, type Profile } from '../profile';
import { failedCalls } from './failed-calls';

/**
 * What one request may do: every field optional, and an absent one is not checked. `false` for
 * `nPlusOne`, `duplicates` and `failedCalls` forbids them (as `assertNumQueries` in Django and
 * nplusone in Python fail a test).
 */
export interface ProfileBudget {
  /** SQL queries at most. */
  readonly maxQueries?: number;
  /** `false`: no query shape run in a loop (N+1: N_PLUS_ONE times or more from one `file:line`). */
  readonly nPlusOne?: boolean;
  /** `false`: no query that repeats an earlier one exactly (same SQL, same parameters). */
  readonly duplicates?: boolean;
  /** `false`: no SQL error, no HTTP call that failed or was answered 5xx, no Redis error reply. */
  readonly failedCalls?: boolean;
  /** Milliseconds the request may take at most (the profile's duration). */
  readonly maxDurationMs?: number;
}

/** The kinds of BudgetViolation, one per field of ProfileBudget. */
export const VIOLATION_KINDS = ['queries', 'n-plus-one', 'duplicate', 'failed-call', 'duration'] as const;
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/** One way a profile is over its budget. */
export interface BudgetViolation {
  readonly kind: ViolationKind;
  readonly token: string;
  /** The matched route's name, `null` when none matched. */
  readonly route: string | null;
  /** `GET /path`: which request. */
  readonly request: string;
  /** What is over budget, in words: `N+1: SELECT … run 5 times`. */
  readonly what: string;
  /** `file:line` of the application where it happened, several joined with `, `; `''` when unknown. */
  readonly origin: string;
}

/** Characters of SQL a violation quotes: one line of a terminal. */
const SQL_CHARS = 120;

function shortSql(sql: string): string {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length <= SQL_CHARS ? flat : `${flat.slice(0, SQL_CHARS)}…`;
}

/** The places `queries` came from, most first, with their count when there are several. */
function originsOf(queries: readonly StoredQuery[]): string {
  const counts = new Map<string, number>();
  for (const query of queries) {
    const place = originText(query.origin);
    if (place !== '') counts.set(place, (counts.get(place) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  return sorted.map(([place, count]) => (sorted.length === 1 ? place : `${place} (${count})`)).join(', ');
}

/** The path and query of `url`, which the request line shows: the host is the server's own. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

function queryViolations(data: DatabaseCollectorData | undefined, budget: ProfileBudget): Omit<BudgetViolation, 'token' | 'route' | 'request'>[] {
  if (data === undefined || !Array.isArray(data.queries)) return [];
  const { queries } = data;
  const found: Omit<BudgetViolation, 'token' | 'route' | 'request'>[] = [];
  if (budget.maxQueries !== undefined && data.count > budget.maxQueries) {
    found.push({ kind: 'queries', what: `${data.count} queries, over the budget of ${budget.maxQueries}`, origin: originsOf(queries) });
  }
  if (budget.nPlusOne !== false && budget.duplicates !== false) return found;
  const analysis = analyzeQueries(queries, data.slowMs);
  if (budget.nPlusOne === false) {
    for (const group of analysis.groups.filter((candidate) => candidate.nPlusOne)) {
      const members = group.queries.flatMap((index) => queries[index] ?? []);
      found.push({ kind: 'n-plus-one', what: `N+1: ${shortSql(group.sql)} run ${group.count} times`, origin: originsOf(members) });
    }
  }
  if (budget.duplicates === false) {
    // One violation per repeated statement, with how often it ran in all.
    const runs = new Map<string, StoredQuery[]>();
    for (const query of queries) {
      const exact = `${query.database}\u0000${query.sql}\u0000${JSON.stringify(query.params)}`;
      runs.set(exact, [...(runs.get(exact) ?? []), query]);
    }
    for (const same of runs.values()) {
      const [first] = same;
      if (first === undefined || same.length < 2) continue;
      found.push({ kind: 'duplicate', what: `duplicate: ${shortSql(first.sql)} run ${same.length} times with the same parameters`, origin: originsOf(same) });
    }
  }
  return found;
}

/**
 * Every way `profile` is over `budget`, in the order of ProfileBudget's fields; none when it is
 * within. Pure: `loupe profiler:check` and `expectProfile` of `loupe-kernel/testing` agree.
 */
export function checkBudget(profile: Profile, budget: ProfileBudget): BudgetViolation[] {
  const route = collectorData<RouterCollectorData>(profile, ROUTER_COLLECTOR)?.route;
  const where = { token: profile.token, route: typeof route === 'string' ? route : null, request: `${profile.method} ${pathOf(profile.url)}` };
  const found = queryViolations(collectorData<DatabaseCollectorData>(profile, DATABASE_COLLECTOR), budget);
  if (budget.failedCalls === false) {
    for (const call of failedCalls(profile)) found.push({ kind: 'failed-call', what: `failed ${call.what}`, origin: call.origin });
  }
  if (budget.maxDurationMs !== undefined && profile.duration > budget.maxDurationMs) {
    found.push({ kind: 'duration', what: `took ${Math.round(profile.duration * 10) / 10} ms, over the budget of ${budget.maxDurationMs} ms`, origin: '' });
  }
  return found.map((violation) => ({ ...where, ...violation }));
}
