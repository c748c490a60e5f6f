import { type Controller } from '../kernel/controller';
import { type RequestContext } from './request-context';

/** The route a request matched, with its parameters (defaults applied, percent-decoded). */
export interface RouteMatch {
  readonly name: string;
  readonly params: Readonly<Record<string, string>>;
  readonly controller: Controller;
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
}
