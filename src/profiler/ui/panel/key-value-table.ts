import { html, type SafeHtml } from '../../../view/html';
import { formatValue } from './panel-format';

/**
 * A two-column table of names and values (headers, query, cookies, route parameters); values
 * that are not strings are shown as JSON. `emptyText` stands in for an empty set; `headings`
 * `null` leaves out the header row, for a table whose names say what they are.
 */
export function renderKeyValueTable(entries: Readonly<Record<string, unknown>> | null, emptyText: string, headings: readonly [string, string] | null = ['Name', 'Value']): SafeHtml {
  const rows = Object.entries(entries ?? {});
  if (rows.length === 0) return html`<p class="empty">${emptyText}</p>`;
  return html`<table class="key-value">
${headings === null ? '' : html`<thead><tr><th class="key">${headings[0]}</th><th>${headings[1]}</th></tr></thead>`}
<tbody>
${rows.map(([name, value]) => html`<tr><th class="key mono" scope="row">${name}</th><td><pre>${formatValue(value)}</pre></td></tr>\n`)}</tbody>
</table>`;
}
