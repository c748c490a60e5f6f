import { RouteTraceLevel, type RouteTraceEntry } from '../../../../routing/route-trace';
import { type RouteMatchingLog } from '../../../collect/collectors/router-collector';
import { formatTable } from '../../../../cli/format/format-table';

/** An outcome in the words of Symfony's router panel. */
function outcome(route: RouteTraceEntry): string {
  if (route.level === RouteTraceLevel.ALMOST_MATCHES) return `Path almost matches, but ${route.log}`;
  return route.level === RouteTraceLevel.MATCHES ? route.log : 'Path does not match';
}

/**
 * The routes a 404 or 405 tried, for the Routing section: a table, the first route that
 * almost matches marked with `>` and named first, as it is the likely culprit; a router that
 * gives no trace is named.
 */
export function formatRouteMatching(matching: RouteMatchingLog): string[] {
  const closest = matching.routes.find((route) => route.level === RouteTraceLevel.ALMOST_MATCHES);
  const rows = matching.routes.map((route, index) => [`${route === closest ? '> ' : ''}${index + 1}`, route.name, route.path, outcome(route)]);
  const untraced = (matching.untraced ?? []).map((name) => `The router ${name} gives no trace: its routes are not listed (it is no TraceableRouter).`);
  if (rows.length === 0 && untraced.length > 0) return [`Routes tried for ${matching.method} ${matching.path}:`, ...untraced];
  return [
    `Routes tried for ${matching.method} ${matching.path}:`,
    closest === undefined ? 'No route almost matches.' : `Closest route: ${closest.name} (${closest.path}): ${outcome(closest)}`,
    ...formatTable(['#', 'Route', 'Path', 'Outcome'], rows).trimEnd().split('\n'),
    ...untraced,
    ...(matching.omitted > 0 ? [`… ${matching.omitted} more routes tried, not listed (a profile lists the first ${matching.routes.length}).`] : []),
  ];
}
