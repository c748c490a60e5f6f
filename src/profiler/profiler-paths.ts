/** Where the profiler's pages live: its routes, its links and the token link are all built from here. */
export const PROFILER_PREFIX = '/_profiler';

/** Where the web debug toolbar's content is served (WebProfilerBundle's `_wdt`). */
export const TOOLBAR_PREFIX = '/_wdt';

/** The profiler's paths (WebProfilerBundle's layout). */
export const ProfilerPaths = {
  HOME: `${PROFILER_PREFIX}/`,
  SEARCH: `${PROFILER_PREFIX}/search`,
  STATUS: `${PROFILER_PREFIX}/status`,
  LATEST: `${PROFILER_PREFIX}/latest`,
  /** The WebSocket of live summaries, as profiles are stored. */
  LIVE: `${PROFILER_PREFIX}/live`,
  /** The route pattern of one profile. */
  PROFILE_ROUTE: `${PROFILER_PREFIX}/{token}`,
  /** The route pattern of the comparison of two profiles. */
  COMPARE_ROUTE: `${PROFILER_PREFIX}/{token}/compare/{other}`,
  /** The route pattern of EXPLAIN of one query (a POST: it connects to the database). */
  EXPLAIN_ROUTE: `${PROFILER_PREFIX}/{token}/explain/{query}`,
  /** The route pattern of EXPLAIN ANALYZE of one query (a POST: it runs the query). */
  EXPLAIN_ANALYZE_ROUTE: `${PROFILER_PREFIX}/{token}/explain/{query}/analyze`,
  /** The route pattern of the search results page; `{token}` is a token or `empty`. */
  RESULTS_ROUTE: `${PROFILER_PREFIX}/{token}/search/results`,
  /** The route pattern of the toolbar's content for one profile. */
  TOOLBAR_ROUTE: `${TOOLBAR_PREFIX}/{token}`,
} as const;

/** The toolbar's content for the profile of `token`. */
export function toolbarPath(token: string): string {
  return `${TOOLBAR_PREFIX}/${encodeURIComponent(token)}`;
}

/** The path of the profile of `token`, opened on `panel` when given. */
export function profilePath(token: string, panel?: string): string {
  const path = `${PROFILER_PREFIX}/${encodeURIComponent(token)}`;
  return panel === undefined ? path : `${path}?panel=${encodeURIComponent(panel)}`;
}

/** The comparison of the profile of `token` (A) with that of `other` (B). */
export function comparePath(token: string, other: string): string {
  return `${PROFILER_PREFIX}/${encodeURIComponent(token)}/compare/${encodeURIComponent(other)}`;
}

/** Where EXPLAIN (or, with `analyze`, EXPLAIN ANALYZE) of query `number` (1-based) of the profile of `token` is posted. */
export function explainPath(token: string, number: number, analyze = false): string {
  return `${PROFILER_PREFIX}/${encodeURIComponent(token)}/explain/${number}${analyze ? '/analyze' : ''}`;
}

/** The search results page (WebProfilerBundle's `_profiler_search_results`) for `query`, under a token or `empty`. */
export function resultsPath(token: string, query: string): string {
  return `${PROFILER_PREFIX}/${encodeURIComponent(token === '' ? 'empty' : token)}/search/results${query === '' ? '' : `?${query}`}`;
}

/** The search results for one field, e.g. every profile from one IP. */
export function searchPath(field: string, value: string): string {
  return `${ProfilerPaths.SEARCH}?${encodeURIComponent(field)}=${encodeURIComponent(value)}`;
}
