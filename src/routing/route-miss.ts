import { MethodNotAllowedError } from './method-not-allowed-error';
import { ResourceNotFoundError } from './resource-not-found-error';
import { type RouteMiss } from './router';

/** The miss of a path nothing answers, shared: a 404 allocates nothing. */
const NOT_FOUND: RouteMiss = Object.freeze({ matched: false, allowedMethods: Object.freeze([]) });

/**
 * A router's answer for a request no route answers: `routeMiss()` is a 404, `routeMiss(['GET'])`
 * a 405 with `Allow: GET`. The methods are upper-cased and listed once, in the order given.
 * `path` is the path looked for last when it is not the request's (see RouteMiss.path).
 */
export function routeMiss(allowedMethods: readonly string[] = [], path?: string): RouteMiss {
  if (allowedMethods.length === 0 && path === undefined) return NOT_FOUND;
  const allowed = Object.freeze([...new Set(allowedMethods.map((method) => method.toUpperCase()))]);
  return Object.freeze(path === undefined ? { matched: false, allowedMethods: allowed } : { matched: false, allowedMethods: allowed, path });
}

/**
 * The routing error a miss stands for, as Symfony's matchers throw it: MethodNotAllowedError
 * (405) or ResourceNotFoundError (404) naming the path looked for, `requestPath` unless the miss
 * names another. The RouterListener makes it the cause of the HTTP error it raises.
 */
export function routeMissError(miss: RouteMiss, requestPath: string): MethodNotAllowedError | ResourceNotFoundError {
  return miss.allowedMethods.length > 0 ? new MethodNotAllowedError(miss.allowedMethods) : new ResourceNotFoundError(miss.path ?? requestPath);
}
