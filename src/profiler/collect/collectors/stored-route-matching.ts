import { RouteTraceLevel, type RouteTraceEntry } from '../../../routing/route-trace';
import { type RedactionPolicy } from '../redaction-policy';
import { type RouteMatchingLog } from './router-collector';

/**
 * The routes tried as stored since profile version 2: one array per field, the route at index i
 * made of each array's i-th value. A log the route's level and path give (`Path "…" does not
 * match`, `Route matches!`: most routes of a 404) is stored as `null`.
 */
export interface StoredRoutesTried {
  readonly name: string[];
  readonly path: string[];
  readonly level: RouteTraceLevel[];
  readonly log: (string | null)[];
}

/** The router entry's `matching` as stored since profile version 2; parseProfile reads it as RouteMatchingLog. */
export interface StoredRouteMatching {
  readonly method: string;
  readonly path: string;
  readonly routes: StoredRoutesTried;
  readonly omitted: number;
}

/** The log a route of `level` and `path` has unless it says more (see traceRoutes). */
function impliedLog(level: number, path: string): string | null {
  if (level === RouteTraceLevel.DOES_NOT_MATCH) return `Path "${path}" does not match`;
  return level === RouteTraceLevel.MATCHES ? 'Route matches!' : null;
}

/** The routes tried as columns, every string redacted (a log may quote the path asked for). */
export function storeRoutesTried(routes: readonly RouteTraceEntry[], redaction: RedactionPolicy): StoredRoutesTried {
  const stored: StoredRoutesTried = { name: [], path: [], level: [], log: [] };
  for (const route of routes) {
    const path = redaction.text(route.path);
    const log = redaction.text(route.log);
    stored.name.push(redaction.text(route.name));
    stored.path.push(path);
    stored.level.push(route.level);
    stored.log.push(log === impliedLog(route.level, path) ? null : log);
  }
  return stored;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isLevel = (value: unknown): value is RouteTraceLevel => value === 0 || value === 1 || value === 2;

/** The columns of `routes`, all of one length, or `null` when they are not. */
function columnsOf(routes: unknown): StoredRoutesTried | null {
  if (!isRecord(routes)) return null;
  const { name, path, level, log } = routes;
  if (!Array.isArray(name) || !Array.isArray(path) || !Array.isArray(level) || !Array.isArray(log)) return null;
  const length = name.length;
  if (path.length !== length || level.length !== length || log.length !== length) return null;
  const valid = name.every(isString) && path.every(isString) && level.every(isLevel) && log.every((text, index) => isString(text) || (text === null && impliedLog(level[index] as number, '') !== null));
  return valid ? { name, path, level, log } : null;
}

/**
 * A version 2 `matching` as its readers take it (RouteMatchingLog, as version 1 stored it: a
 * route object each, with its log), or `null` when it is not one.
 */
export function readStoredRouteMatching(matching: unknown): RouteMatchingLog | null {
  if (!isRecord(matching)) return null;
  const { method, path: asked, omitted } = matching;
  const columns = columnsOf(matching['routes']);
  if (!isString(method) || !isString(asked) || typeof omitted !== 'number' || !Number.isFinite(omitted) || columns === null) return null;
  const routes: RouteTraceEntry[] = columns.name.map((name, index) => {
    const path = columns.path[index] ?? '';
    const level = columns.level[index] ?? RouteTraceLevel.DOES_NOT_MATCH;
    return { name, path, level, log: columns.log[index] ?? impliedLog(level, path) ?? '' };
  });
  return { method, path: asked, routes, omitted };
}
