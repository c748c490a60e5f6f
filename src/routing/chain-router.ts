import { LoupeError } from '../errors/loupe-error';
import { type RequestContext } from './request-context';
import { routeMiss } from './route-miss';
import { type RouteDescription, type RouteMatch, type RouteMiss, type Router } from './router';
import { RouteTraceLevel, type RouteTrace, type RouteTraceEntry } from './route-trace';
import { traceOf, type TraceableRouter } from './traceable-router';

/**
 * Several routers asked in order (Symfony CMF's ChainRouter): the first that matches answers.
 * createLoupe puts its own matcher (the profiler's routes and `LoupeOptions.routes`) before the
 * application's router. A router answers what it matches, even through the redirect of a toggled
 * trailing slash: the later ones are asked only when it misses. A path some routers know for
 * other methods only, and that none matches, is a 405 listing all of their methods.
 */
export class ChainRouter implements TraceableRouter {
  readonly #routers: readonly Router[];

  constructor(routers: readonly Router[]) {
    this.#routers = Object.freeze([...routers]);
  }

  match(method: string, path: string): RouteMatch | RouteMiss {
    // Made only when a router knows the path for other methods: a routed request allocates nothing here.
    let allowed: string[] | null = null;
    let notFound: RouteMiss | null = null;
    for (const router of this.#routers) {
      const answer = router.match(method, path);
      // `!== false`: a match without `matched`, from a router written before misses were answered, is still a match.
      if (answer.matched !== false) return answer;
      if (answer.allowedMethods.length > 0) (allowed ??= []).push(...answer.allowedMethods);
      else notFound = answer;
    }
    // The last router's 404 is kept: it names the path (toggled or not) it looked for last.
    return allowed === null ? (notFound ?? routeMiss()) : routeMiss(allowed);
  }

  generate(name: string, params?: Readonly<Record<string, string>>): string {
    return this.#owner(name).generate(name, params);
  }

  generateUrl(name: string, params: Readonly<Record<string, string>>, context: RequestContext): string {
    return this.#owner(name).generateUrl(name, params, context);
  }

  describe(name: string): RouteDescription | undefined {
    for (const router of this.#routers) {
      const description = router.describe(name);
      if (description !== undefined) return description;
    }
    return undefined;
  }

  /**
   * Each router's trace in turn, the limit counting over all of them, up to the router whose
   * trace ends at a route that matches: the routers after it were not asked. A router that is not
   * a TraceableRouter lists no route and is named in `untraced`; whether it answered cannot be
   * told, so the routers after it are traced as if it had not (createLoupe puts the application's
   * router last). Likewise for a router whose trace the limit cut before its answer: the profiler
   * traces requests no router answered, where neither case arises.
   */
  trace(method: string, path: string, limit = Number.POSITIVE_INFINITY): RouteTrace {
    const routes: RouteTraceEntry[] = [];
    const untraced: string[] = [];
    let omitted = 0;
    for (const router of this.#routers) {
      const trace = traceOf(router, method, path, Math.max(0, limit - routes.length));
      routes.push(...trace.routes);
      omitted += trace.omitted;
      untraced.push(...(trace.untraced ?? []));
      if (trace.routes.at(-1)?.level === RouteTraceLevel.MATCHES) break;
    }
    return untraced.length === 0 ? { routes, omitted } : { routes, omitted, untraced };
  }

  /** The router that knows route `name`; the last one otherwise, so that its error names the unknown route. */
  #owner(name: string): Router {
    const owner = this.#routers.find((router) => router.describe(name) !== undefined) ?? this.#routers.at(-1);
    if (owner === undefined) throw new LoupeError('LOUPE_ERR_ROUTING_INVALID_ROUTE', `Unable to generate a URL for the named route "${name}" as such route does not exist.`);
    return owner;
  }
}
