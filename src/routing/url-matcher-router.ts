import { LoupeError } from '../errors/loupe-error';
import { CompiledRoute } from './compiled-route';
import { generatePath } from './generate-path';
import { MethodNotAllowedError } from './method-not-allowed-error';
import { rawUrlEncode } from '../http/raw-url-encode';
import { rawUrlDecode } from './raw-url-decode';
import { redirectController } from './redirect-controller';
import { type RequestContext } from './request-context';
import { ResourceNotFoundError } from './resource-not-found-error';
import { type RouteDefinition } from './route';
import { type RouteDescription, type RouteMatch, type Router } from './router';
import { type RouteTrace } from './route-trace';
import { toggleTrailingSlash } from './toggle-trailing-slash';
import { traceRoutes } from './trace-routes';

type Attempt = { readonly match: RouteMatch } | { readonly allowed: readonly string[] };

/**
 * A router over an ordered list of routes, with the semantics of Symfony's
 * RedirectableCompiledUrlMatcher: the first route matching path and method wins; a path matched
 * for other methods only is a 405; for GET and HEAD an unmatched path is retried with its
 * trailing slash toggled and, when that matches, answered by a permanent redirect.
 */
export class UrlMatcherRouter implements Router {
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

  match(method: string, rawPath: string): RouteMatch {
    const outcome = this.resolve(method, rawPath);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  /**
   * As `match`, with the failure returned instead of thrown: the RouterListener answers every
   * unrouted request through it, and a throw caught right away costs a prod 404 about 2 % of its CPU.
   */
  resolve(method: string, rawPath: string): RouteMatch | MethodNotAllowedError | ResourceNotFoundError {
    const upper = method.toUpperCase();
    // Matched decoded, as Symfony's matcher does (rawurldecode): `/%68ello` is `/hello`, and an
    // encoded slash is a real one. Messages quote the path as it was sent.
    const path = rawUrlDecode(rawPath) || '/';
    const first = this.#attempt(upper, path);
    if ('match' in first) return first.match;
    if (first.allowed.length > 0) return new MethodNotAllowedError(first.allowed);
    if (upper !== 'GET' && upper !== 'HEAD') return new ResourceNotFoundError(rawPath);
    // The slash is toggled on the path as sent, then decoded, as CompiledUrlMatcherTrait::match()
    // hands the toggled $pathinfo to doMatch(): `/boom%2F` is retried as `/boom//`, which no route
    // answers, so an encoded trailing slash is a 404 and not a redirect.
    const rawToggled = toggleTrailingSlash(rawPath);
    if (rawToggled === rawPath) return new ResourceNotFoundError(rawPath);
    const toggled = rawUrlDecode(rawToggled) || '/';
    const second = this.#attempt(upper, toggled);
    // A toggled path that exists only for other methods is still a 404, as in Symfony.
    if (!('match' in second)) return new ResourceNotFoundError(rawToggled);
    return {
      name: second.match.name,
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

  /** The first route answering both; otherwise the methods of the routes answering the path. */
  #attempt(method: string, path: string): Attempt {
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const params = route.matchPath(path);
      if (params === null) continue;
      if (route.allowsMethod(method)) {
        return { match: { name: route.name, params: Object.freeze(params), controller: route.controller } };
      }
      allowed.push(...route.methods);
    }
    return { allowed };
  }
}
