import { type Router } from './router';
import { type RouteTrace } from './route-trace';

/**
 * A router that can say why it answers what it does, for the profiler's Routing panel of a
 * request no route answered. Optional: a router without `trace` still routes, and the panel says
 * that its routes cannot be listed.
 */
export interface TraceableRouter extends Router {
  /**
   * Why `match(method, path)` answers what it does (Symfony's TraceableUrlMatcher): each route
   * in order, up to the one that answers, with its outcome, at most `limit` of them. Much
   * slower than `match`: for the profiler of a request no route answered, never the hot path.
   */
  trace(method: string, path: string, limit?: number): RouteTrace;
}

/** Whether `router` implements TraceableRouter. */
export function isTraceable(router: Router): router is TraceableRouter {
  return 'trace' in router && typeof router.trace === 'function';
}

/** A router's name as the profiler shows it: its class's, `Router` for a plain object. */
function nameOf(router: Router): string {
  const name: unknown = Object.getPrototypeOf(router)?.constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? name : 'Router';
}

/** `router`'s trace when it has one; otherwise a trace of no route that names it as untraced. */
export function traceOf(router: Router, method: string, path: string, limit: number): RouteTrace {
  return isTraceable(router) ? router.trace(method, path, limit) : { routes: [], omitted: 0, untraced: [nameOf(router)] };
}
