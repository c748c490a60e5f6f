import { type ProfileCollector } from '../collector';

export const ROUTER_COLLECTOR = 'router';

export interface RouterCollectorData {
  /** The matched route name, or `null` when nothing matched. */
  readonly route: string | null;
  readonly controller: string | null;
  /** Route parameters with `_route` and `_controller`, as Symfony's request attributes. */
  readonly params: Readonly<Record<string, string>>;
  /** Why nothing matched, when nothing did. */
  readonly failure: string | null;
}

/** The routing outcome: route, controller, parameters, or why no route matched. */
export const routerCollector: ProfileCollector<RouterCollectorData> = {
  name: ROUTER_COLLECTOR,
  collect: (exchange) => {
    const { attributes } = exchange.request;
    const route = attributes.get('_route');
    const controller = attributes.get('_controller');
    const params: Record<string, string> = {};
    for (const [key, value] of attributes) if (typeof value === 'string') params[key] = value;
    const failure = exchange.errors.find((error) => error instanceof Error && /^No route found/.test(error.message));
    return {
      route: typeof route === 'string' ? route : null,
      controller: typeof controller === 'string' ? controller : (exchange.controller?.name ?? null),
      params,
      failure: failure instanceof Error ? failure.message : null,
    };
  },
};
