import { type Controller } from '../kernel/controller';
import { type RequestContext } from './request-context';
import { type RouteTrace } from './route-trace';

/** The route a request matched, with its parameters (defaults applied, percent-decoded). */
export interface RouteMatch {
  readonly name: string;
  readonly params: Readonly<Record<string, string>>;
  readonly controller: Controller;
}

/** A route as the router holds it: what the profiler shows of the route a request matched. */
export interface RouteDescription {
  readonly name: string;
  /** The path pattern, `/hello/{name}`. */
  readonly path: string;
  /** Upper-cased; empty accepts every method. */
  readonly methods: readonly string[];
  readonly defaults: Readonly<Record<string, string>>;
  /** Anchors removed. */
  readonly requirements: Readonly<Record<string, string>>;
}

/**
 * Matches requests to routes and generates URLs from route names. Implementations run the
 * contract suite in test/routing/router-contract.ts.
 */
export interface Router {
  /**
   * The route answering `method` and `path`, given as sent (percent-encoded) and decoded before
   * matching as Symfony does; parameters are decoded values, messages quote the path as sent.
   * Throws MethodNotAllowedError when the path exists for other methods only, and
   * ResourceNotFoundError when nothing answers it. For GET and HEAD a path that only matches
   * with its trailing slash toggled gives a match of the redirect controller.
   */
  match(method: string, path: string): RouteMatch;
  /**
   * The absolute path of route `name`; parameters that are not placeholders go to the query
   * string. Throws a LoupeError for an unknown route, a missing or an invalid parameter.
   */
  generate(name: string, params?: Readonly<Record<string, string>>): string;
  /** As `generate`, as an absolute URL on the context's scheme and host; `_locale` defaults to the context's. */
  generateUrl(name: string, params: Readonly<Record<string, string>>, context: RequestContext): string;
  /** Route `name`, or `undefined` when there is none. */
  describe(name: string): RouteDescription | undefined;
  /**
   * Why `match(method, path)` answers what it does (Symfony's TraceableUrlMatcher): each route
   * in order, up to the one that answers, with its outcome, at most `limit` of them. Much
   * slower than `match`: for the profiler of a request no route answered, never the hot path.
   */
  trace(method: string, path: string, limit?: number): RouteTrace;
}
