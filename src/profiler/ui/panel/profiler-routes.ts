import { preferredFormat } from '../../../error-handler/negotiate-format';
import { rawUrlEncode } from '../../../http/raw-url-encode';
import { type LoupeRequest } from '../../../http/request';
import { LoupeResponse } from '../../../http/response';
import { type Controller } from '../../../kernel/controller';
import { type ProfilerStats } from '../../profiler';
import { type RouteDefinition } from '../../../routing/route';
import { unreadableProfileMessage } from '../../profile-schema';
import { guardStorage, ProfilerStorageUnavailableError, type PageStorage } from './guard-storage';
import { LIVE_PAGE_CSP } from './live-list';
import { compareResponse } from './compare-response';
import { createExplainController } from './explain-response';
import { type ExplainConfig } from '../../explain/explain-config';
import { loadProfile } from './load-profile';
import { negotiatedResponse, panelErrorResponse, storageUnavailableResponse, tokenNotFoundPage } from './panel-response';
import { type EditorLink } from './editor-link';
import { type PanelDefinition } from './panel-definition';
import { defaultPanel, findPanel } from './panel-registry';
import { previousProfileOf, readPreviousProfile } from './previous-profile';
import { renderProfilePage } from './profile-page';
import { NO_SOURCE, readSourceExcerpts } from '../../../view/read-source-excerpts';
import { type SourceFiles } from '../../../view/source-files';
import { collectorData } from '../../profile';
import { parseSearchQuery } from './search-criteria';
import { renderSearchPage } from './search-page';
import { renderStatusPage, type StorageState, type WorkersView } from './status-page';
import { type ProfilerSettings } from './profiler-settings';
import { DEFAULT_LIMIT } from './search-criteria';
import { counterValues } from './writer-counters';
import { ProfilerPaths, resultsPath } from '../../profiler-paths';
import { createToolbarController } from '../toolbar/toolbar-controller';
import { createToolbarAssetController, TOOLBAR_ASSET_FILE, TOOLBAR_ASSET_ROUTE } from '../toolbar/toolbar-assets';
import { type ToolbarItem } from '../toolbar/toolbar-item';

/** What the profiler's pages read: the storage, the counters, and the writer's recent drops. */
export interface ProfilerRoutesDeps {
  readonly storage: PageStorage;
  /**
   * Whether the storage's connection is up (the reading client's `status === 'ready'`); while it
   * is down the pages answer 503 at once. Without it every call is tried.
   */
  readonly isStorageConnected?: () => boolean;
  /** This process's counters; `null` in a process that stores no profiles and only reads them (`loupe profiler:serve`). */
  readonly stats: () => ProfilerStats | null;
  /**
   * Why this process's writer dropped the profile of `token`, if it did (`profiler.writer.droppedReason`);
   * a process that only reads knows the tombstones in storage only, which the pages read anyway.
   */
  readonly droppedReason: (token: string) => string | undefined;
  /** The panels of the profile page, in menu order (`profiler.panels`: DEFAULT_PANELS and the application's). */
  readonly panels: readonly PanelDefinition[];
  /** With WORKERS > 1: which worker this process is and every worker's counters, else `null`. */
  readonly workers?: () => WorkersView | null;
  /** Links source positions to an editor (PROFILER_IDE); without it they are plain text. */
  readonly editorLink?: EditorLink;
  /** The application's source files, whose lines the Exception panel shows; without it no file is read. */
  readonly sources?: SourceFiles;
  /** The toolbar items of plugins and of the application, after Loupe's own. */
  readonly toolbarItems?: readonly ToolbarItem[];
  /** The configuration the status page shows (no password); without it the page shows none. */
  readonly settings?: ProfilerSettings;
  /** Where the Database panel's Explain action connects (PROFILER_EXPLAIN_*); without it the action says how to configure one. */
  readonly explain?: ExplainConfig;
}

/** A page that reads the storage: the storage failing or not answering makes it a 503 that says so. */
async function unlessUnavailable(request: LoupeRequest, page: () => Promise<LoupeResponse>): Promise<LoupeResponse> {
  try {
    return await page();
  } catch (error) {
    if (error instanceof ProfilerStorageUnavailableError) return storageUnavailableResponse(request, error);
    throw error;
  }
}

/** The results of the request's search filters, in the format the client asked for. */
function searchResults(deps: ProfilerRoutesDeps, request: LoupeRequest): Promise<LoupeResponse> {
  return unlessUnavailable(request, async () => {
    const search = parseSearchQuery(request.queryParams);
    if (!search.ok) return panelErrorResponse(request, 400, 'Invalid search', search.message);
    const result = await deps.storage.search(search.criteria);
    // The panel leaves out rows it cannot read; profiler:list names them.
    const rows = result.rows.flatMap((row) => (row.ok ? [row.summary] : []));
    const { page, limit } = search;
    return negotiatedResponse(
      request,
      200,
      {
      json: () => ({
        filters: search.criteria,
        count: rows.length,
        total: result.total,
        page,
        pageSize: limit,
        pages: Math.max(1, Math.ceil(result.total / limit)),
        scanned: result.scanned,
        complete: result.complete,
        results: rows,
      }),
      html: () => renderSearchPage({ form: search.form, result, page, limit }, deps.stats()),
      },
      { htmlCsp: LIVE_PAGE_CSP },
    );
  });
}

/** The filters WebProfilerBundle's ProfilerController::searchAction() reads and passes on, in its order. */
const SYMFONY_FILTERS: readonly string[] = ['ip', 'method', 'status_code', 'url', 'start', 'end', 'limit'];

/**
 * The query of the results page a search redirects to, as ProfilerController::searchAction()
 * generates it: each filter of SYMFONY_FILTERS that was sent (an absent one is null, which
 * http_build_query leaves out), then `type`, `request` unless sent (`$request->query->get('type',
 * 'request')`), encoded as PHP_QUERY_RFC3986 does. Loupe's own filters (sort, page, …) follow in
 * the order sent; the token moves into the path.
 */
function searchRedirectQuery(query: URLSearchParams): string {
  const pairs: string[] = [];
  const add = (key: string, value: string): void => {
    pairs.push(`${rawUrlEncode(key)}=${rawUrlEncode(value)}`);
  };
  for (const key of SYMFONY_FILTERS) {
    const value = query.get(key);
    if (value !== null) add(key, value);
  }
  add('type', query.get('type') ?? 'request');
  for (const [key, value] of query) if (key !== 'token' && key !== 'type' && !SYMFONY_FILTERS.includes(key)) add(key, value);
  return pairs.join('&');
}

/**
 * `/_profiler/` and `/_profiler/search` (ProfilerController::homeAction and searchAction): a
 * browser is redirected (302) to the results page of its filters, under the token it typed or
 * `empty`; the home page without a query goes to `homeQuery` (homeAction's `limit=10`). A JSON
 * client gets the results at once.
 */
function createSearchController(deps: ProfilerRoutesDeps, name: string, homeQuery: string | null): Controller {
  return {
    name,
    handle: async ({ request }) => {
      if (preferredFormat(request) === 'json') return searchResults(deps, request);
      const query = request.queryParams;
      const token = (query.get('token') ?? '').trim().toLowerCase();
      return LoupeResponse.redirect(resultsPath(token, homeQuery !== null && query.size === 0 ? homeQuery : searchRedirectQuery(query)), 302);
    },
  };
}

/** `/_profiler/{token}/search/results` (searchResultsAction): the results page. */
function createResultsController(deps: ProfilerRoutesDeps): Controller {
  return { name: 'profiler.searchResults', handle: ({ request }) => searchResults(deps, request) };
}

/** How many profiles the storage indexes, or why it cannot say. */
async function storageState(storage: PageStorage): Promise<StorageState> {
  try {
    return { reachable: true, indexed: await storage.count(), error: null };
  } catch (error) {
    if (!(error instanceof ProfilerStorageUnavailableError)) throw error;
    return { reachable: false, indexed: null, error: error.message };
  }
}

/**
 * `/_profiler/status`: this process's counters, from memory, whether Redis answers or not (that
 * is when they matter), and what the storage says when it answers.
 */
function createStatusController(deps: ProfilerRoutesDeps): Controller {
  return {
    name: 'profiler.status',
    handle: async ({ request }) => {
      const stats = deps.stats();
      const storage = await storageState(deps.storage);
      const workers = deps.workers?.() ?? null;
      return negotiatedResponse(request, 200, {
        json: () => ({
          ...counterValues(stats),
          indexed: storage.indexed,
          storage: { reachable: storage.reachable, error: storage.error },
          ...(workers === null ? {} : { worker: workers.id, workers: workers.workers }),
          ...(deps.settings === undefined ? {} : { settings: deps.settings }),
        }),
        html: () => renderStatusPage(stats, storage, workers, deps.settings),
      });
    },
  };
}

/**
 * `/_profiler/live` opened as a page rather than as a WebSocket (the browser's address bar, a
 * link): the search page, whose live list is that WebSocket. uWS hands a GET without an
 * `Upgrade` header to the kernel, which would otherwise answer 404.
 */
function createLivePageController(): Controller {
  return { name: 'profiler.live', handle: () => LoupeResponse.redirect(resultsPath('', `limit=${DEFAULT_LIMIT}`), 302) };
}

/** `/_profiler/{token}/compare/{other}`: the profile `other` (B) measured against `token` (A). */
function createCompareController(deps: ProfilerRoutesDeps): Controller {
  return {
    name: 'profiler.compare',
    handle: ({ request, params }) => unlessUnavailable(request, () => compareResponse(deps, request, params['token'] ?? '', params['other'] ?? '')),
  };
}

function createPanelController(deps: ProfilerRoutesDeps): Controller {
  return {
    name: 'profiler.panel',
    handle: ({ request, params }) =>
      unlessUnavailable(request, async () => {
        const lookup = await loadProfile(deps, params['token'] ?? '');
        switch (lookup.kind) {
          case 'none':
            return panelErrorResponse(request, 404, 'There are no profiles', 'No profiles found.');
          case 'missing':
            // As Symfony's info page "Token not found": a page, not an error, for a browser; a 404 for JSON.
            if (preferredFormat(request) !== 'json') return tokenNotFoundPage(lookup.token);
            return panelErrorResponse(request, 404, 'Token not found', `Token "${lookup.token}" not found.`);
          case 'dropped':
            return panelErrorResponse(request, 404, 'Profile dropped', `The profile of token "${lookup.token}" was dropped and is not available: ${lookup.reason}`);
          case 'unreadable':
            return panelErrorResponse(request, 500, 'Profile unreadable', unreadableProfileMessage(lookup.token, lookup.reason));
        }
        const { profile, children } = lookup;
        const requested = request.queryParams.get('panel');
        const panel = requested === null || requested === '' ? defaultPanel(deps.panels, profile) : findPanel(deps.panels, requested);
        if (panel === undefined) {
          return panelErrorResponse(request, 404, 'Panel not available', `Panel "${requested ?? ''}" is not available for token "${profile.token}".`);
        }
        const isJson = preferredFormat(request) === 'json';
        const previous = isJson ? null : await previousProfileOf(deps.storage, profile);
        const data = collectorData(profile, panel.collector);
        const source = isJson || data === undefined || panel.sources === undefined || deps.sources === undefined ? NO_SOURCE : await readSourceExcerpts(panel.sources(data), deps.sources);
        const previousProfile = previous === null || panel.readsPrevious !== true ? null : await readPreviousProfile(deps.storage, previous);
        const page = {
          profile,
          children,
          panels: deps.panels,
          panel,
          previous,
          query: request.queryParams,
          source,
          ...(previousProfile === null ? {} : { previousProfile }),
          ...(deps.editorLink === undefined ? {} : { editorLink: deps.editorLink }),
        };
        return negotiatedResponse(request, 200, {
          // The stored JSON (an error sub-request's with its parent's errors put back), with summaries of the sub-request profiles it links to.
          json: () => ({ ...profile, childProfiles: children }),
          html: () => renderProfilePage(page, deps.stats()),
        });
      }),
  };
}

/** A profile's token and a query's number as the Database panel shows it (from 1). */
const EXPLAIN_REQUIREMENTS = { token: '[0-9a-f]{6}|latest', query: '[1-9][0-9]{0,5}' };

/** What `/_profiler/` lists, as Symfony's home redirect (`limit=10`); a search without a limit shows DEFAULT_LIMIT. */
const HOME_LIMIT = 10;

/**
 * The profiler's routes (WebProfilerBundle's names and paths), registered only with debug on and
 * before the application's. None of them is profiled (the ProfilerListener skips `_profiler*`
 * and `_wdt` routes).
 */
export function createProfilerRoutes(unguarded: ProfilerRoutesDeps): RouteDefinition[] {
  const isConnected = unguarded.isStorageConnected ?? (() => true);
  const deps: ProfilerRoutesDeps = { ...unguarded, storage: guardStorage(unguarded.storage, isConnected) };
  return [
    { name: '_profiler_home', path: ProfilerPaths.HOME, methods: ['GET'], controller: createSearchController(deps, 'profiler.home', `limit=${HOME_LIMIT}`) },
    { name: '_profiler_search', path: ProfilerPaths.SEARCH, methods: ['GET'], controller: createSearchController(deps, 'profiler.search', null) },
    { name: '_profiler_status', path: ProfilerPaths.STATUS, methods: ['GET'], controller: createStatusController(deps) },
    { name: '_profiler_live', path: ProfilerPaths.LIVE, methods: ['GET'], controller: createLivePageController() },
    {
      name: '_profiler_search_results',
      path: ProfilerPaths.RESULTS_ROUTE,
      methods: ['GET'],
      requirements: { token: '[0-9a-f]{6}|empty' },
      controller: createResultsController(deps),
    },
    {
      name: '_profiler_compare',
      path: ProfilerPaths.COMPARE_ROUTE,
      methods: ['GET'],
      requirements: { token: '[0-9a-f]{6}|latest', other: '[0-9a-f]{6}|latest' },
      controller: createCompareController(deps),
    },
    // POST: they connect to a database (and ANALYZE runs the query); a link or an image of another page must not.
    { name: '_profiler_explain', path: ProfilerPaths.EXPLAIN_ROUTE, methods: ['POST'], requirements: EXPLAIN_REQUIREMENTS, controller: createExplainController(deps, false) },
    { name: '_profiler_explain_analyze', path: ProfilerPaths.EXPLAIN_ANALYZE_ROUTE, methods: ['POST'], requirements: EXPLAIN_REQUIREMENTS, controller: createExplainController(deps, true) },
    {
      name: '_profiler',
      path: ProfilerPaths.PROFILE_ROUTE,
      methods: ['GET'],
      requirements: { token: '[0-9a-f]{6}|latest' },
      controller: createPanelController(deps),
    },
    { name: '_wdt_assets', path: TOOLBAR_ASSET_ROUTE, methods: ['GET'], requirements: { file: TOOLBAR_ASSET_FILE }, controller: createToolbarAssetController() },
    { name: '_wdt', path: ProfilerPaths.TOOLBAR_ROUTE, methods: ['GET'], requirements: { token: '[0-9a-f]{6}' }, controller: createToolbarController(deps, deps.toolbarItems) },
  ];
}
