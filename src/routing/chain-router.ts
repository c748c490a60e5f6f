import { LoupeError } from '../errors/loupe-error';
import { MethodNotAllowedError } from './method-not-allowed-error';
import { type RequestContext } from './request-context';
import { ResourceNotFoundError } from './resource-not-found-error';
import { type RouteDescription, type RouteMatch, type Router } from './router';
import { type RouteTrace, type RouteTraceEntry } from './route-trace';

/**
 * Several routers asked in order (Symfony CMF's ChainRouter): the first that matches answers.
 * createLoupe puts its own matcher (the profiler's routes and `LoupeOptions.routes`) before the
 * application's router. A router answers what it matches, even through the redirect of a toggled
 * trailing slash: the later ones are asked only when it throws. A path some routers know for
 * other methods only, and that none matches, is a 405 listing all of their methods.
 */
export class ChainRouter implements Router {
  readonly #routers: readonly Router[];

  constructor(routers: readonly Router[]) {
    this.#routers = Object.freeze([...routers]);
  }

  match(method: string, path: string): RouteMatch {
    const allowed: string[] = [];
    // Made only when no router answers: an error (and its stack) per routed request would be waste.
    let notFound: unknown = null;
    for (const router of this.#routers) {
      try {
        return router.match(method, path);
      } catch (error) {
        if (error instanceof MethodNotAllowedError) allowed.push(...error.allowedMethods);
        else if (error instanceof ResourceNotFoundError) notFound = error;
        else throw error;
      }
    }
    // The last router's 404 is kept: its message names the path (toggled or not) it looked for.
    throw allowed.length > 0 ? new MethodNotAllowedError(allowed) : (notFound ?? new ResourceNotFoundError(path));
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

  /** Each router's trace in turn, up to the router that answers; the limit counts over all of them. */
  trace(method: string, path: string, limit = Number.POSITIVE_INFINITY): RouteTrace {
    const routes: RouteTraceEntry[] = [];
    let omitted = 0;
    for (const router of this.#routers) {
      const trace = router.trace(method, path, Math.max(0, limit - routes.length));
      routes.push(...trace.routes);
      omitted += trace.omitted;
      if (this.#answers(router, method, path)) break;
    }
    return { routes, omitted };
  }

  /** The router that knows route `name`; the last one otherwise, so that its error names the unknown route. */
  #owner(name: string): Router {
    const owner = this.#routers.find((router) => router.describe(name) !== undefined) ?? this.#routers.at(-1);
    if (owner === undefined) throw new LoupeError('LOUPE_ERR_ROUTING_INVALID_ROUTE', `Unable to generate a URL for the named route "${name}" as such route does not exist.`);
    return owner;
  }

  #answers(router: Router, method: string, path: string): boolean {
    try {
      router.match(method, path);
      return true;
    } catch {
      return false;
    }
  }
}
