import { type Controller } from '../kernel/controller';
import { type RequestContext } from './request-context';

/** The route a request matched, with its parameters (defaults applied, percent-decoded). */
export interface RouteMatch {
  /** Always `true`: what tells a match from a miss. */
  readonly matched: true;
  /** The route's name, as `generate` takes it. */
  readonly name: string;
  /** The route's placeholders and defaults, by name: what the controller gets as `params`. */
  readonly params: Readonly<Record<string, string>>;
  /** What answers the request. */
  readonly controller: Controller;
}

/**
 * A router's answer when no route answers a request: a 404 when `allowedMethods` is empty, a 405
 * with them in `Allow` otherwise. Built with `routeMiss()`.
 */
export interface RouteMiss {
  /** Always `false`: what tells a miss from a match. */
  readonly matched: false;
  /** The methods the path answers when it answers only others (a 405): upper-cased, once each. Empty: a 404. */
  readonly allowedMethods: readonly string[];
  /**
   * The path looked for last, as sent, when it is not the request's: Loupe's router, as Symfony's,
   * names a GET's path with its trailing slash toggled. The 404's cause quotes it.
   */
  readonly path?: string;
}

/** A route as the router holds it: what the profiler shows of the route a request matched. */
export interface RouteDescription {
  /** The route's name. */
  readonly name: string;
  /** The path pattern, `/hello/{name}`. */
  readonly path: string;
  /** Upper-cased; empty accepts every method. */
  readonly methods: readonly string[];
  /** The route's defaults, by name; `{}` when it has none. */
  readonly defaults: Readonly<Record<string, string>>;
  /** Anchors removed. */
  readonly requirements: Readonly<Record<string, string>>;
}

/**
 * Matches requests to routes and generates URLs from route names. Implementations run the
 * contract suites in test/routing/router-contract.ts. A router that can say why it answers what
 * it does implements TraceableRouter as well, for the profiler's Routing panel.
 */
export interface Router {
  /**
   * The route answering `method` and `path`, or a miss: `{ matched: false, allowedMethods }`,
   * listing the methods the path answers when it exists for other methods only (a 405), none
   * when nothing answers it (a 404). It answers, it does not throw: a request no route answers
   * is as ordinary as one a route answers. The path is given as sent (percent-encoded) and
   * decoded before matching as Symfony does; parameters are decoded values. For GET and HEAD
   * Loupe's router answers a path that only matches with its trailing slash toggled with a
   * match of the redirect controller.
   */
  match(method: string, path: string): RouteMatch | RouteMiss;
  /**
   * The absolute path of route `name`; parameters that are not placeholders go to the query
   * string. Throws a LoupeError for an unknown route, a missing or an invalid parameter.
   */
  generate(name: string, params?: Readonly<Record<string, string>>): string;
  /** As `generate`, as an absolute URL on the context's scheme and host; `_locale` defaults to the context's. */
  generateUrl(name: string, params: Readonly<Record<string, string>>, context: RequestContext): string;
  /** Route `name`, or `undefined` when there is none. */
  describe(name: string): RouteDescription | undefined;
}
