import { type CompiledRoute } from './compiled-route';
import { rawUrlDecode } from './raw-url-decode';
import { RouteTraceLevel, type RouteTrace, type RouteTraceEntry } from './route-trace';
import { toggleTrailingSlash } from './toggle-trailing-slash';

/** The request as the matcher sees it. */
interface Target {
  /** Upper-cased. */
  readonly method: string;
  /** Percent-decoded. */
  readonly path: string;
  /** The path as sent with its trailing slash toggled, then decoded; equal to `path` when it is slashes only. */
  readonly toggled: string;
  /** Whether a route answers `path` as it is, for this method or for others only (a 405): either wins over a redirect. */
  readonly exact: 'this method' | 'other methods' | 'none';
}

const entry = (route: CompiledRoute, level: RouteTraceLevel, log: string): RouteTraceEntry => ({ name: route.name, path: route.path, level, log });

function methodMismatch(route: CompiledRoute, method: string): string {
  return `Method "${method}" does not match any of the required methods (${route.methods.join(', ')})`;
}

/** Why a route that answers the path with its trailing slash toggled did not redirect there. */
function trailingSlashMismatch(route: CompiledRoute, target: Target): string {
  const { method, toggled } = target;
  if (method !== 'GET' && method !== 'HEAD') return `Trailing slash does not match: a ${method} request is not redirected to "${toggled}"`;
  if (!route.allowsMethod(method)) return `Trailing slash does not match, and ${methodMismatch(route, method).replace(/^M/, 'm')}`;
  const methods = target.exact === 'other methods' ? ' for other methods' : '';
  return `Trailing slash does not match: no redirect to "${toggled}", as a route answers "${target.path}"${methods}`;
}

/** Per route, the route compiled with no requirement (key `null`) and with each one alone (key: its name). */
const relaxedRoutes = new WeakMap<CompiledRoute, Map<string | null, CompiledRoute>>();

/** `route` with only its requirement `name` (none for `null`), compiled the first time it is asked for. */
function relaxed(route: CompiledRoute, name: string | null): CompiledRoute {
  let compiled = relaxedRoutes.get(route);
  if (compiled === undefined) {
    compiled = new Map();
    relaxedRoutes.set(route, compiled);
  }
  let variant = compiled.get(name);
  if (variant === undefined) {
    variant = route.withRequirements(name === null ? {} : { [name]: route.requirements[name] ?? '' });
    compiled.set(name, variant);
  }
  return variant;
}

/**
 * As Symfony's TraceableUrlMatcher: when the path matches once the route's requirements are
 * dropped, the first requirement that fails on its own.
 */
function failedRequirement(route: CompiledRoute, target: Target): RouteTraceEntry | null {
  const requirements = Object.entries(route.requirements);
  if (requirements.length === 0) return null;
  // The static prefix first, as Symfony does: most routes stop here without compiling anything.
  const prefix = route.staticPrefix;
  if (prefix !== '' && !(target.path.replace(/\/+$/, '') || '/').startsWith(prefix)) return null;
  const unrestricted = relaxed(route, null);
  const candidate = [target.path, target.toggled].find((path) => unrestricted.matchPath(path) !== null);
  if (candidate === undefined) return null;
  for (const [name, requirement] of requirements) {
    if (relaxed(route, name).matchPath(candidate) === null) {
      return entry(route, RouteTraceLevel.ALMOST_MATCHES, `Requirement for "${name}" does not match (${requirement})`);
    }
  }
  return null;
}

/** The outcome of a route that does not answer the request. */
function explain(route: CompiledRoute, target: Target): RouteTraceEntry {
  if (route.matchPath(target.path) !== null) return entry(route, RouteTraceLevel.ALMOST_MATCHES, methodMismatch(route, target.method));
  if (target.toggled !== target.path && route.matchPath(target.toggled) !== null) {
    return entry(route, RouteTraceLevel.ALMOST_MATCHES, trailingSlashMismatch(route, target));
  }
  return failedRequirement(route, target) ?? entry(route, RouteTraceLevel.DOES_NOT_MATCH, `Path "${route.path}" does not match`);
}

/**
 * Each route's outcome for `method` and `rawPath`, in order, up to the route that answers (as
 * Symfony's TraceableUrlMatcher, with its wording), at most `limit` of them. Which route answers
 * follows UrlMatcherRouter.match: the exact path first, then for GET and HEAD the path with its
 * trailing slash toggled, unless a route answers the exact path for other methods (a 405).
 * Compiles routes without their requirements to explain a failure, once per route: never on the hot path.
 */
export function traceRoutes(routes: readonly CompiledRoute[], method: string, rawPath: string, limit: number): RouteTrace {
  const upper = method.toUpperCase();
  const path = rawUrlDecode(rawPath) || '/';
  // Toggled as sent, then decoded, as UrlMatcherRouter.resolve does.
  const toggled = rawUrlDecode(toggleTrailingSlash(rawPath)) || '/';
  const answers = (candidate: string) => (route: CompiledRoute) => route.matchPath(candidate) !== null && route.allowsMethod(upper);
  let exact: Target['exact'] = 'none';
  if (routes.some(answers(path))) exact = 'this method';
  else if (routes.some((route) => route.matchPath(path) !== null)) exact = 'other methods';
  const redirects = exact === 'none' && (upper === 'GET' || upper === 'HEAD') && toggled !== path;
  const winner = routes.findIndex(answers(redirects ? toggled : path));
  const tried = winner === -1 ? routes.length : winner + 1;
  const target: Target = { method: upper, path, toggled, exact };
  const listed = routes.slice(0, Math.max(0, Math.min(tried, limit)));
  return {
    routes: listed.map((route, index) => (index === winner ? entry(route, RouteTraceLevel.MATCHES, 'Route matches!') : explain(route, target))),
    omitted: tried - listed.length,
  };
}
