import { html, type SafeHtml } from '../../../view/html';
import { analyzeQueries, originFunction, originText, type QueryAnalysis, type QueryGroup } from '../../app-io/analyze-calls';
import { groupBatchRewrite } from '../../app-io/batch-rewrite';
import { DATABASE_COLLECTOR, type DatabaseCollectorData } from '../../collect/collectors/app-io-collectors';
import { callFilters, chosenFilter, filteredIndexes, renderCallTotals, renderDuration, renderFilterLinks, renderFlags, renderCallOrigin, renderRowsOrEmpty, type FilterRules } from './call-panel-parts';
import { renderSourcePosition } from './editor-link';
import { type PanelContext, type PanelDefinition } from './panel-definition';
import { formatMs, formatValue } from './panel-format';
import { explainableQuery } from '../../explain/explainable-query';
import { comparePath, explainPath, profilePath } from '../../profiler-paths';
import { type StoredQuery } from '../../app-io/analyze-calls';
import { queryShapeChanges } from '../../app-io/query-shape-changes';
import { collectorData, type Profile } from '../../profile';

/** The `?filter=` that lists the query shapes instead of the queries. */
const GROUPED = 'grouped';

/** The `?filter=` that lists the queries of shapes the route's previous profile did not run. */
const NEW = 'new';

/** Whether a query starts with SELECT or WITH, the statements the Explain action is for. */
const READS = /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*(?:select|with)\b/i;

/**
 * The Explain action of a query (Symfony's Doctrine panel's "Explain query"): a form that POSTs,
 * since it connects to the database, so no page needs a script. A SELECT that cannot be explained
 * as it ran (a redacted parameter) says why instead.
 */
function renderExplainAction(token: string, query: StoredQuery, index: number): SafeHtml {
  if (!READS.test(query.sql)) return html``;
  const explainable = explainableQuery(query);
  if (!explainable.ok) return html`<p class="help explain-refused">Not explained: ${explainable.reason}</p>`;
  return html`<form method="post" action="${explainPath(token, index + 1)}" class="explain-form"><button type="submit">Explain</button></form>`;
}

/** The shapes this profile ran that the route's previous profile did not, and where they run; `null` with nothing to compare with. */
interface NewShapes {
  readonly since: Profile;
  /** The previous profile's queries past PROFILER_MAX_ENTRIES, counted but not kept: their shapes are unknown. */
  readonly unkept: number;
  readonly kept: number;
  readonly shapes: ReadonlySet<string>;
  /** Indexes of the queries of those shapes. */
  readonly queries: ReadonlySet<number>;
}

/**
 * "New since last time": read when the panel is shown rather than when the request is profiled,
 * so the request path pays nothing. No comparison when the previous profile has no Database entry
 * (then which shapes it ran is unknown, and every shape would read as new).
 */
function newShapesOf(context: PanelContext<DatabaseCollectorData>, analysis: QueryAnalysis): NewShapes | null {
  const since = context.previous;
  const changes = since === undefined ? null : queryShapeChanges(since, context.profile);
  if (since === undefined || changes === null) return null;
  const shapes = new Set(changes.added);
  const previous = collectorData<DatabaseCollectorData>(since, DATABASE_COLLECTOR);
  const [unkept, kept] = [previous?.dropped ?? 0, previous?.queries.length ?? 0];
  return { since, shapes, unkept, kept, queries: new Set(analysis.groups.filter((group) => shapes.has(group.sql)).flatMap((group) => group.queries)) };
}

/** `2 query shapes new since <token>`, the previous profile of the route linked, with the comparison of both. */
function renderNewShapesLine(token: string, fresh: NewShapes | null): SafeHtml {
  if (fresh === null) return html``;
  const { since, shapes, unkept, kept } = fresh;
  const count = shapes.size === 0 ? 'No query shape' : `${shapes.size} query ${shapes.size === 1 ? 'shape' : 'shapes'}`;
  return html`<p class="new-shapes" data-count="${shapes.size}">${count} new since <a class="mono" href="${profilePath(since.token, 'db')}">${since.token}</a>, the previous request of this route (<a href="${comparePath(since.token, token)}">compare</a>).${
    unkept > 0 ? html` <span class="help unkept">It kept ${kept} of its ${kept + unkept} queries (PROFILER_MAX_ENTRIES): a shape it ran past them reads as new here.</span>` : ''
  }</p>`;
}

function renderQuery(context: PanelContext<DatabaseCollectorData>, analysis: QueryAnalysis, inLoops: ReadonlySet<number>, fresh: NewShapes | null, index: number): SafeHtml {
  const query = context.data.queries[index];
  if (query === undefined) return html``;
  const params = formatValue(query.params);
  return html`<tr class="query" data-index="${index}"><td>${index + 1}</td><td>${formatMs(query.start)}</td><td>${renderDuration(query.duration)}</td>
<td><pre class="sql">${query.sql}</pre>${
    query.params === null || params === '[]' || params === '{}' ? '' : html`<details class="params"><summary>Parameters</summary><pre>${params}</pre></details>`
  }<span class="help">${query.database === '' ? query.driver : `${query.driver} · ${query.database}`}</span>${renderFlags([
    [inLoops.has(index), 'N+1'],
    [analysis.duplicates.has(index), 'duplicate'],
    [analysis.slow.has(index), 'slow'],
    [query.error !== null, 'error'],
    [fresh?.queries.has(index) === true, 'new'],
  ])}${query.error === null ? '' : html`<p class="call-error status-error-text">${query.error}</p>`}${renderExplainAction(context.profile.token, query, index)}</td>
<td>${query.rows ?? '—'}</td><td>${renderCallOrigin(query, context.editorLink)}</td></tr>\n`;
}

/** A group's `file:line` places, linked where the editor is configured. */
function renderGroupOrigins(group: QueryGroup, context: PanelContext<DatabaseCollectorData>): SafeHtml {
  const places = group.queries.flatMap((index) => {
    const origin = context.data.queries[index]?.origin ?? null;
    return origin === null || originText(origin) === '' ? [] : [origin];
  });
  const unique = places.filter((origin, at) => places.findIndex((other) => originText(other) === originText(origin)) === at);
  if (unique.length === 0) return html`<span class="empty">—</span>`;
  return html`${unique.map((origin, at) => html`${at === 0 ? '' : html`<br>`}${renderSourcePosition(context.editorLink, origin.file, origin.line)}`)}${renderLoop(group, context)}`;
}

/** The line of the loop that repeats an N+1 group's query: where to batch it. */
function renderLoop(group: QueryGroup, context: PanelContext<DatabaseCollectorData>): SafeHtml {
  if (group.loop === null) return html``;
  const fn = originFunction(group.loop);
  return html`<p class="loop-origin"><span class="help">in the loop at</span> ${renderSourcePosition(context.editorLink, group.loop.file, group.loop.line)}${fn === '' ? '' : html` <span class="fn">${fn}</span>`}</p>`;
}

/** Under an N+1 group whose loop compares one value with a column: the one query that fetches them all. */
function renderBatchHint(group: QueryGroup, context: PanelContext<DatabaseCollectorData>): SafeHtml {
  const rewrite = groupBatchRewrite(group, context.data.queries);
  if (rewrite === null) return html``;
  const values = rewrite.sql.includes('= ANY(') ? `an array of the ${group.count} values of ${rewrite.column}` : `the ${group.count} values of ${rewrite.column}, one ? each`;
  return html`<div class="batch-hint"><span class="help">Batched, one query with ${values} (${rewrite.saved} round trips fewer):</span><pre class="sql">${rewrite.sql}</pre></div>`;
}

function renderGroups(context: PanelContext<DatabaseCollectorData>, analysis: QueryAnalysis, fresh: NewShapes | null): SafeHtml {
  return html`<table class="query-groups">
<thead><tr><th>Statement (normalized)</th><th>Count</th><th>Time</th><th>Origins</th></tr></thead>
<tbody>
${analysis.groups.map(
  (group) => html`<tr class="${group.nPlusOne ? 'group n-plus-one' : 'group'}"><td><pre class="sql">${group.sql}</pre>${renderFlags([
    [group.nPlusOne, 'N+1'],
    [fresh?.shapes.has(group.sql) === true, 'new'],
  ])}${renderBatchHint(group, context)}</td>
<td>${group.count}</td><td>${formatMs(group.time)}</td><td>${renderGroupOrigins(group, context)}</td></tr>\n`,
)}</tbody>
</table>`;
}

/**
 * Database: the application's SQL queries, as Symfony's Doctrine panel — totals, then the
 * queries (or their shapes, `?filter=grouped`) with duration, rows and origin, N+1 loops,
 * exact duplicates and slow queries flagged and filterable, and the shapes the route's previous
 * profile did not run marked new.
 */
export const databasePanel: PanelDefinition<DatabaseCollectorData> = {
  name: 'db',
  label: 'Database',
  collector: DATABASE_COLLECTOR,
  readsPrevious: true,
  badge: (data) => (data.count === 0 ? null : { count: data.count, isError: data.errors > 0, isWarning: data.nPlusOne > 0 || data.slow > 0 }),
  render: (context) => {
    const { data, profile, query } = context;
    if (data.count === 0) return html`<h2>Database</h2><p class="empty">No SQL query was captured.</p>`;
    const analysis = analyzeQueries(data.queries, data.slowMs);
    const inLoops = new Set(analysis.groups.filter((group) => group.nPlusOne).flatMap((group) => group.queries));
    const rules: FilterRules = {
      n_plus_one: (index) => inLoops.has(index),
      duplicates: (index) => analysis.duplicates.has(index),
      slow: (index) => analysis.slow.has(index),
      errors: (index) => data.queries[index]?.error !== null,
    };
    const fresh = newShapesOf(context, analysis);
    const filters = [
      ...callFilters(data.queries.length, rules),
      ...(fresh === null ? [] : [{ name: NEW, label: 'New', count: fresh.queries.size }]),
      { name: GROUPED, label: 'Grouped', count: analysis.groups.length },
    ];
    const filter = chosenFilter(query, filters);
    const indexes = filter === NEW && fresh !== null ? [...fresh.queries].sort((a, b) => a - b) : filteredIndexes(data.queries.length, rules, filter);
    const summary = html` · <span class="${data.nPlusOne > 0 ? 'n-plus-one status-warning-text' : 'n-plus-one'}">${data.nPlusOne} N+1</span> · <span class="duplicates">${data.duplicates} duplicates</span>`;
    return html`<h2>Database</h2>
${renderCallTotals(data, ['query', 'queries'], summary)}
${renderNewShapesLine(profile.token, fresh)}
${renderFilterLinks(profile.token, 'db', filter, filters)}
${filter === GROUPED ? renderGroups(context, analysis, fresh) : html`<table class="queries">
<thead><tr><th>#</th><th>Start</th><th>Duration</th><th>Query</th><th>Rows</th><th>Origin</th></tr></thead>
<tbody>
${renderRowsOrEmpty(indexes, 6, (index) => renderQuery(context, analysis, inLoops, fresh, index))}</tbody>
</table>`}`;
  },
};
