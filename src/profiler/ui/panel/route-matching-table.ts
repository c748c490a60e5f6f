import { RouteTraceLevel, type RouteTraceEntry } from '../../../routing/route-trace';
import { html, type SafeHtml } from '../../../view/html';
import { type RouteMatchingLog } from '../../collect/collectors/router-collector';

/** Row classes by level, as Symfony's router panel colours them. */
const ROW_CLASS: Readonly<Record<RouteTraceEntry['level'], string>> = {
  [RouteTraceLevel.DOES_NOT_MATCH]: '',
  [RouteTraceLevel.ALMOST_MATCHES]: 'status-warning',
  [RouteTraceLevel.MATCHES]: 'status-success',
};

/** The outcome in the words of Symfony's panel: a route that does not match says only that. */
function outcome(route: RouteTraceEntry): SafeHtml {
  if (route.level === RouteTraceLevel.ALMOST_MATCHES) return html`Path almost matches, but <span class="newline">${route.log}</span>`;
  if (route.level === RouteTraceLevel.MATCHES) return html`${route.log}`;
  return html`Path does not match`;
}

/** The profiler's own routes (`_profiler*`, `_wdt`): registered first, so tried first, and rarely what a reader looks for. */
function isProfilerRoute(route: RouteTraceEntry): boolean {
  return route.name.startsWith('_profiler') || route.name === '_wdt' || route.name.startsWith('_wdt_');
}

/** A row: its anchor by the route's place among those tried, its number by its place in its own table. */
function renderRow(route: RouteTraceEntry, index: number, closest: number, number: number): SafeHtml {
  const classes = [ROW_CLASS[route.level], index === closest ? 'closest' : ''].filter((name) => name !== '').join(' ');
  return html`<tr id="route-trace-${index + 1}"${classes === '' ? '' : html` class="${classes}"`} data-level="${route.level}"><td>${number}</td><td class="mono">${route.name}</td><td class="mono">${route.path}</td><td>${outcome(route)}</td></tr>\n`;
}

const HEAD = html`<thead><tr><th>#</th><th>Route name</th><th>Path</th><th>Log</th></tr></thead>`;

/** The first route that almost matches, named above the table: most likely the one the request was meant for. */
function renderClosest(closest: number, route: RouteTraceEntry | undefined): SafeHtml {
  if (route === undefined) return html`<p class="closest-route empty">No route almost matches: none has this path with other methods, requirements or trailing slash.</p>`;
  return html`<p class="closest-route"><strong>Closest route:</strong> <a href="#route-trace-${closest + 1}"><code>${route.name}</code></a> (<code>${route.path}</code>): ${outcome(route)}</p>`;
}

/** A router asked that is not a TraceableRouter: what it tried cannot be shown, and the reader is told why. */
function renderUntraced(name: string): SafeHtml {
  return html`<p class="notice untraced">The router <code>${name}</code> gives no trace: its routes are not listed. A router lists them by implementing <code>TraceableRouter</code> (a <code>trace()</code> method).</p>\n`;
}

/**
 * The routes tried for a request no route answered (Symfony's "Route Matching Logs"): each with
 * its outcome, the first that almost matches highlighted and named above the table, since it is
 * most likely the route the request was meant for. The profiler's own routes that do not match
 * are folded into a <details> under the table (one click, no script); each table numbers its rows
 * from 1. A router asked that gives no trace is named under them; when no router gave one, only that is said.
 */
export function renderRouteMatching(matching: RouteMatchingLog): SafeHtml {
  const closest = matching.routes.findIndex((route) => route.level === RouteTraceLevel.ALMOST_MATCHES);
  const numbered = matching.routes.map((route, index) => [route, index] as const);
  const isFolded = (route: RouteTraceEntry): boolean => isProfilerRoute(route) && route.level === RouteTraceLevel.DOES_NOT_MATCH;
  const shown = numbered.filter(([route]) => !isFolded(route));
  const folded = numbered.filter(([route]) => isFolded(route));
  const untraced = (matching.untraced ?? []).map(renderUntraced);
  const traced =
    matching.routes.length === 0 && untraced.length > 0
      ? ''
      : html`${renderClosest(closest, matching.routes[closest])}
<table id="router-logs">
${HEAD}
<tbody>
${shown.map(([route, index], row) => renderRow(route, index, closest, row + 1))}</tbody>
</table>
${
  folded.length === 0
    ? ''
    : html`<details class="profiler-routes"><summary>The profiler's own ${folded.length} route${folded.length === 1 ? '' : 's'} (tried first, none matched)</summary>
<table id="router-logs-profiler">
${HEAD}
<tbody>
${folded.map(([route, index], row) => renderRow(route, index, closest, row + 1))}</tbody>
</table></details>`
}`;
  return html`<h3>Route matching log</h3>
<p class="path-to-match"><strong>Path to match:</strong> <code>${matching.method} ${matching.path}</code></p>
${traced}
${untraced}${matching.omitted > 0 ? html`<p class="notice">${matching.omitted} more routes were tried and are not listed: a profile lists the first ${matching.routes.length}.</p>` : ''}
<p class="help">These logs were recorded when the request was profiled, against the routes of that moment.</p>`;
}
