import { STATUS_TEXT } from '../../../errors/status-text';
import { html, type SafeHtml } from '../../../view/html';
import { REQUEST_COLLECTOR, type RequestCollectorData, type ResponseBodyData } from '../../collect/collectors/request-collector';
import { renderKeyValueTable } from './key-value-table';
import { type PanelDefinition } from './panel-definition';
import { formatMs, formatValue } from './panel-format';

function renderBody(body: unknown): SafeHtml {
  if (body === null || body === undefined || body === '') return html`<p class="empty">No request body.</p>`;
  return html`<table><tbody><tr><td><pre>${formatValue(body)}</pre></td></tr></tbody></table>`;
}

/** The response body's line: its size, and for a streamed body its first and last bytes and how it ended. */
export function describeResponseBody(body: ResponseBodyData): string {
  if (!body.streamed) return `${body.bytes} bytes`;
  const first = body.firstByteMs === null ? 'no byte went out' : `first byte after ${formatMs(body.firstByteMs)}`;
  const end = body.failed ? ', when its source failed and the connection was closed' : body.aborted ? ', when the client went away' : '';
  return `streamed, ${body.bytes} bytes; ${first}, last byte after ${formatMs(body.lastByteMs)}${end}`;
}

/**
 * Request / Response: what the client sent (headers, query, cookies, body, session, locale,
 * user) and what it got back. Secrets were already replaced when the profile was collected.
 */
export const requestPanel: PanelDefinition<RequestCollectorData> = {
  name: 'request',
  label: 'Request / Response',
  collector: REQUEST_COLLECTOR,
  render: ({ profile, data: request }) => {
    const { response } = request;
    const user = request.user === null ? null : { identifier: request.user.identifier, roles: request.user.roles.join(', '), authenticated_via: request.user.via };
    return html`<h2>Request</h2>
${renderKeyValueTable({ method: profile.method, url: profile.url, client_ip: profile.ip, locale: request.locale }, 'No request data.')}
<h3>Query parameters</h3>
${renderKeyValueTable(request.query, 'No query parameters.')}
<h3>Request headers</h3>
${renderKeyValueTable(request.headers, 'No request headers.', ['Header', 'Value'])}
<h3>Cookies</h3>
${renderKeyValueTable(request.cookies, 'No cookies.', ['Cookie', 'Value'])}
<h3>Request body</h3>
${renderBody(request.body)}
<h3>Session attributes</h3>
${request.session === null ? html`<p class="empty">No session was started.</p>` : renderKeyValueTable(request.session, 'The session is empty.', ['Attribute', 'Value'])}
<h3>Authenticated user</h3>
${user === null ? html`<p class="empty">No authenticated user.</p>` : renderKeyValueTable(user, '')}
<h2>Response</h2>
<p class="response-status">${response.statusCode === 0 ? html`<span class="empty">No response was sent.</span>` : html`Status <strong>${response.statusCode} ${STATUS_TEXT[response.statusCode] ?? ''}</strong>`}</p>
${response.body === undefined ? '' : html`<p class="response-body">Body: ${describeResponseBody(response.body)}.</p>`}
<h3>Response headers</h3>
${renderKeyValueTable(response.headers, 'No response headers.', ['Header', 'Value'])}`;
  },
};
