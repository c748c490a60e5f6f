import { html, type SafeHtml } from '../../../view/html';
import { type Explained } from '../../explain/explain-stored-query';
import { type PlanNode } from '../../explain/plan-node';
import { explainPath, profilePath } from '../../profiler-paths';
import { renderPanelLayout } from './panel-layout';
import { formatValue } from './panel-format';

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** What a full scan is called where it runs: PostgreSQL's node name, MySQL's access type ALL. */
export function fullScanName(dialect: Explained['output']['dialect']): string {
  return dialect === 'pg' ? 'Seq Scan' : 'full table scan';
}

function renderFigures(node: PlanNode): SafeHtml {
  const figures: SafeHtml[] = [];
  if (node.rows !== null) figures.push(html`<span class="plan-rows">rows=${NUMBER.format(node.rows)}</span>`);
  if (node.cost !== null) figures.push(html`<span class="plan-cost">cost=${NUMBER.format(node.cost)}</span>`);
  if (node.actualRows !== null) figures.push(html`<span class="plan-actual-rows">actual rows=${NUMBER.format(node.actualRows)}</span>`);
  if (node.actualMs !== null) figures.push(html`<span class="plan-actual-time">time=${NUMBER.format(node.actualMs)} ms</span>`);
  if (node.loops !== null) figures.push(html`<span class="plan-loops">loops=${NUMBER.format(node.loops)}</span>`);
  return html`${figures.map((figure) => html` ${figure}`)}`;
}

function renderNode(node: PlanNode, scanName: string): SafeHtml {
  return html`<li class="${node.fullScan ? 'plan-node full-scan' : 'plan-node'}"><span class="plan-label">${node.label}</span>${
    node.fullScan ? html` <span class="flag flag-full-scan">${scanName}</span>` : ''
  }${renderFigures(node)}${node.details.length === 0 ? '' : html`<ul class="plan-details">${node.details.map((detail) => html`<li>${detail}</li>`)}</ul>`}${
    node.children.length === 0 ? '' : html`<ul class="plan">${node.children.map((child) => renderNode(child, scanName))}</ul>`
  }</li>\n`;
}

/** The plan as nested lists, each step with its rows and cost, full scans flagged; a text plan as it came. */
export function renderPlanTree(explained: Explained): SafeHtml {
  const { tree } = explained;
  if (tree.text !== null) return html`<pre class="plan-text">${tree.text}</pre>`;
  return html`<ul class="plan plan-root">${tree.nodes.map((node) => renderNode(node, fullScanName(explained.output.dialect)))}</ul>
${tree.notes.length === 0 ? '' : html`<p class="plan-notes">${tree.notes.join(' · ')}</p>`}`;
}

/** The button that runs EXPLAIN ANALYZE: a POST of its own, since it runs the query. */
function renderAnalyzeForm(token: string, number: number, analyze: boolean): SafeHtml {
  return html`<form method="post" action="${explainPath(token, number, true)}" class="explain-form"><button type="submit">${analyze ? 'Run EXPLAIN ANALYZE again' : 'Run EXPLAIN ANALYZE'}</button> <span class="help">runs the query (in a read-only transaction, rolled back) to measure its actual rows and time</span></form>`;
}

/** The page of one query's plan: the query, where it was explained, the tree, and the ANALYZE button. */
export function renderExplainPage(token: string, number: number, explained: Explained): string {
  const { query, output } = explained;
  const title = output.analyze ? 'EXPLAIN ANALYZE' : 'EXPLAIN';
  const params = formatValue(query.params);
  return renderPanelLayout({
    content: html`<section class="panel explain" id="explain">
<p><a href="${profilePath(token, 'db')}">← Database panel of ${token}</a></p>
<h2>${title} of query #${number}</h2>
<pre class="sql">${query.sql}</pre>${params === '[]' || params === '{}' ? '' : html`<p class="help">Parameters: <code>${params}</code></p>`}
<p class="help explain-where">${query.driver} · explained on <code>${explained.database}</code> (${output.server}) · in a read-only transaction, rolled back${
      query.database !== '' && !explained.database.includes(`/${query.database}`) ? html` · <strong>the query ran on the database "${query.database}"</strong>` : ''
    }</p>
<p class="explain-summary"><span class="${explained.fullScans > 0 ? 'full-scans status-warning-text' : 'full-scans'}">${explained.fullScans} ${fullScanName(output.dialect)}${explained.fullScans === 1 ? '' : 's'}</span></p>
${renderPlanTree(explained)}
${renderAnalyzeForm(token, number, output.analyze)}
<details class="plan-json"><summary>The plan as the database answered it</summary><pre>${typeof output.plan === 'string' ? output.plan : JSON.stringify(output.plan, null, 2)}</pre></details>
</section>`,
  });
}
