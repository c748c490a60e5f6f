/**
 * How close a route came to answering a request, as Symfony's TraceableUrlMatcher grades it
 * (ROUTE_DOES_NOT_MATCH, ROUTE_ALMOST_MATCHES, ROUTE_MATCHES).
 */
export const RouteTraceLevel = {
  DOES_NOT_MATCH: 0,
  ALMOST_MATCHES: 1,
  MATCHES: 2,
} as const;

/** One of RouteTraceLevel's grades: 0 does not match, 1 almost matches (e.g. wrong method), 2 matches. */
export type RouteTraceLevel = (typeof RouteTraceLevel)[keyof typeof RouteTraceLevel];

/** One route's outcome for a request, with Symfony's fields and wording (`Route matches!`). */
export interface RouteTraceEntry {
  /** The route's name. */
  readonly name: string;
  /** The route's path pattern, `/hello/{name}`. */
  readonly path: string;
  /** How close the route came to answering. */
  readonly level: RouteTraceLevel;
  /** Why: `Path "/hello/{name}" does not match`, `Requirement for "page" does not match (\d+)`… */
  readonly log: string;
}

/** The routes tried for a request, in matching order, up to the one that answers it. */
export interface RouteTrace {
  /** The routes tried, each with its outcome; the last one matches when a route answers. */
  readonly routes: readonly RouteTraceEntry[];
  /** Routes tried but not listed, past the limit asked for. */
  readonly omitted: number;
  /**
   * The routers asked that are not TraceableRouter, by class name: their routes are not in
   * `routes`. Absent when every router asked gave its trace.
   */
  readonly untraced?: readonly string[];
}
