import { type Controller } from '../kernel/controller';

/**
 * One route as the application declares it. `path` holds `{name}` placeholders; a placeholder's
 * requirement is a regular expression source (default `[^/]+`); a default makes a trailing
 * placeholder optional (`/blog/{page}` with `page: '1'` also answers `/blog`). Defaults of names
 * that are not placeholders are passed to the controller as extra parameters, as in Symfony.
 */
export interface RouteDefinition {
  /** Unique, non-empty: what `generate` and the profiler's `_route` name it by. */
  readonly name: string;
  /** The path pattern, starting with `/`, e.g. `/hello/{name}`. */
  readonly path: string;
  /** Accepted methods; absent or empty accepts every method. A `GET` route also answers `HEAD`. */
  readonly methods?: readonly string[];
  /** A regular expression source per placeholder (anchors implied), e.g. `{ page: '\\d+' }`; `[^/]+` when absent. */
  readonly requirements?: Readonly<Record<string, string>>;
  /** Values of placeholders left out of the URL, and extra parameters for the controller. */
  readonly defaults?: Readonly<Record<string, string>>;
  /** What answers a request this route matches. */
  readonly controller: Controller;
}
