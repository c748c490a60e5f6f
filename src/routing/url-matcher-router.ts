import { LoupeError } from '../errors/loupe-error';
import { CompiledRoute } from './compiled-route';
import { generatePath } from './generate-path';
import { rawUrlEncode } from '../http/raw-url-encode';
import { rawUrlDecode } from './raw-url-decode';
import { redirectController } from './redirect-controller';
import { type RequestContext } from './request-context';
import { type RouteDefinition } from './route';
import { routeMiss } from './route-miss';
import { type RouteDescription, type RouteMatch, type RouteMiss } from './router';
import { type RouteTrace } from './route-trace';
import { toggleTrailingSlash } from './toggle-trailing-slash';
import { type TraceableRouter } from './traceable-router';
import { traceRoutes } from './trace-routes';

/**
 * A router over an ordered list of routes, with the semantics of Symfony's
 * RedirectableCompiledUrlMatcher: the first route matching path and method wins; a path matched
 * for other methods only is a 405; for GET and HEAD an unmatched path is retried with its
 * trailing slash toggled and, when that matches, answered by a permanent redirect.
 */
export class UrlMatcherRouter implements TraceableRouter {
  readonly #routes: readonly CompiledRoute[];
  readonly #byName: ReadonlyMap<string, CompiledRoute>;

  /** Compiles every route once; throws LOUPE_ERR_ROUTING_INVALID_ROUTE for an invalid or duplicate one. */
  constructor(definitions: readonly RouteDefinition[]) {
    const byName = new Map<string, CompiledRoute>();
    for (const definition of definitions) {
      if (byName.has(definition.name)) {
        throw new LoupeError('LOUPE_ERR_ROUTING_INVALID_ROUTE', `Route "${definition.name}" is invalid: the name is used twice.`);
      }
      byName.set(definition.name, new CompiledRoute(definition));
    }
    this.#byName = byName;
    this.#routes = Object.freeze([...byName.values()]);
  }

  match(method: string, rawPath: string): RouteMatch | RouteMiss {
    const upper = method.toUpperCase();
    // Matched decoded, as Symfony's matcher does (rawurldecode): `/%68ello` is `/hello`, and an
    // encoded slash is a real one. Misses name the path as it was sent.
    const path = rawUrlDecode(rawPath) || '/';
    const first = this.#attempt(upper, path);
    if (first.matched || first.allowedMethods.length > 0) return first;
    if (upper !== 'GET' && upper !== 'HEAD') return first;
    // The slash is toggled on the path as sent, then decoded, as CompiledUrlMatcherTrait::match()
    // hands the toggled $pathinfo to doMatch(): `/boom%2F` is retried as `/boom//`, which no route
    // answers, so an encoded trailing slash is a 404 and not a redirect.
    const rawToggled = toggleTrailingSlash(rawPath);
    if (rawToggled === rawPath) return first;
    const toggled = rawUrlDecode(rawToggled) || '/';
    const second = this.#attempt(upper, toggled);
    // A toggled path that exists only for other methods is still a 404, as in Symfony, which
    // names the toggled path, the last it looked for.
    if (!second.matched) return routeMiss([], rawToggled);
    return {
      matched: true,
      name: second.name,
      // The target is sent in a Location header: each segment encoded again.
      params: Object.freeze({ path: toggled.split('/').map(rawUrlEncode).join('/'), permanent: 'true' }),
      controller: redirectController,
    };
  }

  generate(name: string, params: Readonly<Record<string, string>> = {}): string {
    return generatePath(this.#route(name), params);
  }

  generateUrl(name: string, params: Readonly<Record<string, string>>, context: RequestContext): string {
    const path = generatePath(this.#route(name), params, { _locale: context.locale });
    const defaultPort = context.scheme === 'https' ? 443 : 80;
    return `${context.scheme}://${context.host}${context.port === defaultPort ? '' : `:${context.port}`}${path}`;
  }

  describe(name: string): RouteDescription | undefined {
    const route = this.#byName.get(name);
    if (route === undefined) return undefined;
    const { path, methods, defaults, requirements } = route;
    return { name, path, methods, defaults, requirements };
  }

  trace(method: string, path: string, limit = Number.POSITIVE_INFINITY): RouteTrace {
    return traceRoutes(this.#routes, method, path, limit);
  }

  #route(name: string): CompiledRoute {
    const route = this.#byName.get(name);
    if (route === undefined) {
      throw new LoupeError('LOUPE_ERR_ROUTING_INVALID_ROUTE', `Unable to generate a URL for the named route "${name}" as such route does not exist.`);
    }
    return route;
  }

  /** The first route answering both; otherwise a miss with the methods of the routes answering the path. */
  #attempt(method: string, path: string): RouteMatch | RouteMiss {
    // Made only for a path some route answers for other methods: a match allocates none.
    let allowed: string[] | null = null;
    for (const route of this.#routes) {
      const params = route.matchPath(path);
      if (params === null) continue;
      if (route.allowsMethod(method)) return { matched: true, name: route.name, params: Object.freeze(params), controller: route.controller };
      (allowed ??= []).push(...route.methods);
    }
    return routeMiss(allowed ?? []);
  }
}
