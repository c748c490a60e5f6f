import { type Controller } from '../kernel/controller';

/**
 * One route as the application declares it. `path` holds `{name}` placeholders; a placeholder's
 * requirement is a regular expression source (default `[^/]+`); a default makes a trailing
 * placeholder optional (`/blog/{page}` with `page: '1'` also answers `/blog`). Defaults of names
 * that are not placeholders are passed to the controller as extra parameters, as in Symfony.
 */
export interface RouteDefinition {
  readonly name: string;
  readonly path: string;
  /** Accepted methods; absent or empty accepts every method. A `GET` route also answers `HEAD`. */
  readonly methods?: readonly string[];
  readonly requirements?: Readonly<Record<string, string>>;
  readonly defaults?: Readonly<Record<string, string>>;
  readonly controller: Controller;
}
