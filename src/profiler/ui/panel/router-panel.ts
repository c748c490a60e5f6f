import { redirectController } from '../../../routing/redirect-controller';
import { html, type SafeHtml } from '../../../view/html';
import { ROUTER_COLLECTOR, type RouterCollectorData } from '../../collect/collectors/router-collector';
import { renderKeyValueTable } from './key-value-table';
import { type PanelDefinition } from './panel-definition';
import { renderRouteMatching } from './route-matching-table';

function renderOutcome({ route, controller, failure }: RouterCollectorData): SafeHtml {
  if (route !== null) return html`<p>Matched route <code class="matched-route">${route}</code>.</p>`;
  if (failure !== null) return html`<p>No route matched: <span class="routing-failure">${failure}</span></p>`;
  if (controller !== null) return html`<p>No route was matched: the controller was set directly (an error sub-request renders its parent's error).</p>`;
  return html`<p class="empty">The request did not reach routing.</p>`;
}

/** The matched route: its pattern, parameters and defaults, and where it redirects (a trailing slash toggled). */
function renderMatched(data: RouterCollectorData): SafeHtml {
  const { route, controller, params } = data;
  const target = controller === redirectController.name ? params['path'] : undefined;
  return html`${renderKeyValueTable({ 'Matched route': route ?? '(none)', Path: data.path ?? '(not recorded)', Controller: controller ?? '(none)' }, '', null)}
${target === undefined ? '' : html`<h3>Route redirection</h3><p>This page redirects to <code class="redirect-target">${target}</code>: the path of route <code>${route}</code> with its trailing slash toggled.</p>`}
<h3>Route parameters</h3>
${renderKeyValueTable(params, 'No route parameters.', ['Parameter', 'Value'])}
<h3>Route defaults</h3>
${data.defaults === undefined ? html`<p class="empty">Not recorded in this profile.</p>` : renderKeyValueTable(data.defaults, 'No defaults.', ['Name', 'Value'])}`;
}

/** Nothing matched: for a 404 or 405, the routes tried and why each did not answer. */
function renderUnmatched(data: RouterCollectorData): SafeHtml {
  const { controller, params, failure, matching } = data;
  let tried: SafeHtml | string = '';
  if (failure !== null && matching !== undefined && matching !== null) tried = renderRouteMatching(matching);
  else if (failure !== null && matching === undefined) tried = html`<p class="empty">This profile was stored before Loupe recorded the routes tried.</p>`;
  else if (failure !== null) tried = html`<p class="empty">The routes tried were not recorded: the request was not routed by Loupe's RouterListener.</p>`;
  return html`${renderKeyValueTable({ 'Matched route': '(none)', Controller: controller ?? '(none)' }, '', null)}
${Object.keys(params).length === 0 ? '' : html`<h3>Route parameters</h3>
${renderKeyValueTable(params, '', ['Parameter', 'Value'])}`}
${tried}`;
}

/**
 * Routing: the matched route with its pattern, parameters and defaults; or, for a 404 or 405,
 * every route tried with its outcome (Symfony's router panel).
 */
export const routerPanel: PanelDefinition<RouterCollectorData> = {
  name: 'router',
  label: 'Routing',
  collector: ROUTER_COLLECTOR,
  render: ({ data }) => html`<h2>Routing</h2>
${renderOutcome(data)}
${data.route === null ? renderUnmatched(data) : renderMatched(data)}`,
};
