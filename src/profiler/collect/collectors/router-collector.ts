import { LoupeError } from '../../../errors/loupe-error';
import { type RouteTraceEntry } from '../../../routing/route-trace';
import { RoutingAttributes } from '../../../routing/routing-attributes';
import { traceOf } from '../../../routing/traceable-router';
import { type ProfileCollector } from '../../collector';
import { type RedactionPolicy } from '../redaction-policy';
import { redactsItself, textOrNull } from '../redacts-itself';

export const ROUTER_COLLECTOR = 'router';

/** The most routes a profile lists as tried: a bound on its size, whatever the application declares. */
export const ROUTES_TRIED_LIMIT = 200;

/** What the router tried for a request no route answered (Symfony's route matching logs). */
export interface RouteMatchingLog {
  readonly method: string;
  /** The path matched, as sent. */
  readonly path: string;
  /** Each route tried, in order, with its outcome; at most ROUTES_TRIED_LIMIT of them. */
  readonly routes: readonly RouteTraceEntry[];
  /** Routes tried but not listed. */
  readonly omitted: number;
  /** The routers asked that give no trace (not TraceableRouter), by class name; absent when none, and in older profiles. */
  readonly untraced?: readonly string[];
}

export interface RouterCollectorData {
  /** The matched route name, or `null` when nothing matched. */
  readonly route: string | null;
  readonly controller: string | null;
  /** Route parameters with `_route` and `_controller`, as Symfony's request attributes. */
  readonly params: Readonly<Record<string, string>>;
  /** Why nothing matched, when nothing did. */
  readonly failure: string | null;
  /** The matched route's path pattern; absent in profiles stored before Loupe recorded it. */
  readonly path?: string | null;
  /** The matched route's declared defaults; absent in older profiles. */
  readonly defaults?: Readonly<Record<string, string>>;
  /** For a 404 or 405 of the router: the routes it tried and why each did not answer; absent in older profiles. */
  readonly matching?: RouteMatchingLog | null;
}

/** The codes of the router's errors when no route answers (404) or not for this method (405): known by code, so that recording a request of another server loads nothing of Loupe's routing. */
const ROUTING_FAILURES: ReadonlySet<string> = new Set(['LOUPE_ERR_ROUTING_RESOURCE_NOT_FOUND', 'LOUPE_ERR_ROUTING_METHOD_NOT_ALLOWED']);

/** True for the error the RouterListener raises when no route answers (404) or not for this method (405). */
function isRoutingFailure(error: unknown): boolean {
  return error instanceof Error && error.cause instanceof LoupeError && error.cause.code !== null && ROUTING_FAILURES.has(error.cause.code);
}

/** A route's defaults, each redacted (a route declared in plain JavaScript may have other values than strings). */
function redactDefaults(values: Readonly<Record<string, string>> | undefined, redaction: RedactionPolicy): Record<string, string> {
  const out: Record<string, string> = {};
  if (values !== undefined) for (const [key, value] of Object.entries(values)) out[key] = typeof value === 'string' ? redaction.text(value) : (redaction.entry(value) as string);
  return out;
}

/** The routes tried, every string of them redacted (a log may quote the path asked for). */
function redactTrace(routes: readonly RouteTraceEntry[], redaction: RedactionPolicy): RouteTraceEntry[] {
  return routes.map((route) => ({ name: redaction.text(route.name), path: redaction.text(route.path), level: route.level, log: redaction.text(route.log) }));
}

/**
 * The routing outcome: route, controller, parameters, the route's pattern and defaults, or why
 * no route matched. For a 404 or 405 it asks the router, now and only then, to trace each
 * route: stored rather than traced when the panel opens, because the routes may have changed by then.
 * A router that is not a TraceableRouter is named as such, with no route listed.
 * Every string is redacted here (parameters, the failure and the routes' logs hold the request's path).
 */
export const routerCollector: ProfileCollector<RouterCollectorData> = redactsItself({
  name: ROUTER_COLLECTOR,
  collect: (exchange, redaction) => {
    const { request } = exchange;
    const { attributes } = request;
    const route = attributes.get('_route');
    const controller = attributes.get('_controller');
    const params: Record<string, string> = {};
    for (const [key, value] of attributes) if (typeof value === 'string') params[key] = redaction.text(value);
    const router = exchange.attributes.get(RoutingAttributes.ROUTER);
    const described = typeof route === 'string' ? router?.describe(route) : undefined;
    const failure = exchange.errors.find((error) => error instanceof Error && /^No route found/.test(error.message));
    const trace = router !== undefined && exchange.errors.some(isRoutingFailure) ? traceOf(router, request.method, request.path, ROUTES_TRIED_LIMIT) : undefined;
    return {
      route: textOrNull(route, redaction),
      controller: textOrNull(typeof controller === 'string' ? controller : exchange.controller?.name, redaction),
      params,
      failure: failure instanceof Error ? textOrNull(failure.message, redaction) : null,
      path: textOrNull(described?.path, redaction),
      defaults: redactDefaults(described?.defaults, redaction),
      matching:
        trace === undefined
          ? null
          : {
              method: redaction.text(request.method),
              path: redaction.text(request.path),
              routes: redactTrace(trace.routes, redaction),
              omitted: trace.omitted,
              ...(trace.untraced === undefined ? {} : { untraced: trace.untraced.map((name) => redaction.text(name)) }),
            },
    };
  },
});
