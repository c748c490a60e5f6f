import { html, type SafeHtml } from '../../view/html';
import { ROUTER_COLLECTOR, type RouterCollectorData } from '../collectors/router-collector';
import { renderKeyValueTable } from './key-value-table';
import { type PanelDefinition } from './panel-definition';

/** Routing: the matched route, its controller and parameters, or why nothing matched. */
export const routerPanel: PanelDefinition<RouterCollectorData> = {
  name: 'router',
  label: 'Routing',
  collector: ROUTER_COLLECTOR,
  render: ({ data: { route, controller, params, failure } }) => {
    let outcome: SafeHtml;
    if (route !== null) outcome = html`<p>Matched route <code class="matched-route">${route}</code>.</p>`;
    else if (failure !== null) outcome = html`<p>No route matched: <span class="routing-failure">${failure}</span></p>`;
    else if (controller !== null) outcome = html`<p>No route was matched: the controller was set directly (an error sub-request renders its parent's error).</p>`;
    else outcome = html`<p class="empty">The request did not reach routing.</p>`;
    return html`<h2>Routing</h2>
${outcome}
${renderKeyValueTable({ 'Matched route': route ?? '(none)', Controller: controller ?? '(none)' }, '', ['', ''])}
<h3>Route parameters</h3>
${renderKeyValueTable(params, 'No route parameters.', ['Parameter', 'Value'])}`;
  },
};
