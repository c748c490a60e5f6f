import { MethodNotAllowedError } from './method-not-allowed-error';
import { ResourceNotFoundError } from './resource-not-found-error';
import { type RouteMiss } from './router';

const NO_METHODS: readonly string[] = Object.freeze([]);

/** The miss of a path nothing answers, shared (hence frozen): a 404 allocates nothing. */
const NOT_FOUND: RouteMiss = Object.freeze({ matched: false, allowedMethods: NO_METHODS });

/**
 * A router's answer for a request no route answers: `routeMiss()` is a 404, `routeMiss(['GET'])`
 * a 405 with `Allow: GET`. The methods are upper-cased and listed once, in the order given.
 * `path` is the path looked for last when it is not the request's (see RouteMiss.path).
 */
export function routeMiss(allowedMethods: readonly string[] = NO_METHODS, path?: string): RouteMiss {
  // A 404 naming its path is Loupe's router's answer to every unrouted GET: made without a Set.
  const allowed = allowedMethods.length === 0 ? NO_METHODS : [...new Set(allowedMethods.map((method) => method.toUpperCase()))];
  if (path !== undefined) return { matched: false, allowedMethods: allowed, path };
  return allowed === NO_METHODS ? NOT_FOUND : { matched: false, allowedMethods: allowed };
}

/**
 * The routing error a miss stands for, as Symfony's matchers throw it: MethodNotAllowedError
 * (405) or ResourceNotFoundError (404) naming the path looked for, `requestPath` unless the miss
 * names another. The RouterListener makes it the cause of the HTTP error it raises.
 */
export function routeMissError(miss: RouteMiss, requestPath: string): MethodNotAllowedError | ResourceNotFoundError {
  return miss.allowedMethods.length > 0 ? new MethodNotAllowedError(miss.allowedMethods) : new ResourceNotFoundError(miss.path ?? requestPath);
}
