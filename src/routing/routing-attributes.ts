import { attributeKey } from '../kernel/attributes';
import { type Router } from './router';

/** What the RouterListener leaves on an exchange it routed. */
export const RoutingAttributes = {
  /**
   * The router that matched the request, or failed to: the profiler asks it, when it collects,
   * for the matched route's pattern and defaults, or why no route answered.
   */
  ROUTER: attributeKey<Router>('router'),
} as const;
