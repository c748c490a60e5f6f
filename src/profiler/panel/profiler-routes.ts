import { Response } from '../../http/response';
import { type Controller } from '../../kernel/controller';
import { type ProfileStorage } from '../profile-storage';
import { type ProfilerStats } from '../profiler';
import { type RouteDefinition } from '../../routing/route';
import { unreadableProfileMessage } from '../profile-schema';
import { loadProfile } from './load-profile';
import { negotiatedResponse, panelErrorResponse } from './panel-response';
import { type PanelDefinition } from './panel-definition';
import { defaultPanel, findPanel } from './panel-registry';
import { renderProfilePage } from './profile-page';
import { parseSearchQuery } from './search-criteria';
import { renderSearchPage } from './search-page';
import { renderStatusPage } from './status-page';
import { counterValues } from './writer-counters';
import { profilePath, ProfilerPaths } from '../profiler-paths';

/** What the profiler's pages read: the storage, the counters, and the writer's recent drops. */
export interface ProfilerRoutesDeps {
  readonly storage: ProfileStorage;
  readonly stats: () => ProfilerStats;
  /** Why this process's writer dropped the profile of `token`, if it did (`profiler.writer.droppedReason`). */
  readonly droppedReason: (token: string) => string | undefined;
  /** The panels of the profile page, in menu order (`profiler.panels`: DEFAULT_PANELS and the application's). */
  readonly panels: readonly PanelDefinition[];
}

function createSearchController(deps: ProfilerRoutesDeps, name: string): Controller {
  return {
    name,
    handle: async ({ request }) => {
      const token = (request.queryParams.get('token') ?? '').trim().toLowerCase();
      if (token !== '') return Response.redirect(profilePath(token), 302);
      const search = parseSearchQuery(request.queryParams);
      if (!search.ok) return panelErrorResponse(request, 400, 'Invalid search', search.message);
      const rows = await deps.storage.find(search.criteria);
      return negotiatedResponse(request, 200, {
        json: () => ({ filters: search.criteria, count: rows.length, results: rows }),
        html: () => renderSearchPage(search.form, rows, deps.stats()),
      });
    },
  };
}

function createStatusController(deps: ProfilerRoutesDeps): Controller {
  return {
    name: 'Loupe\\Panel\\ProfilerController::statusAction',
    handle: async ({ request }) => {
      const stats = deps.stats();
      const indexed = await deps.storage.count();
      return negotiatedResponse(request, 200, {
        json: () => ({ ...counterValues(stats), indexed }),
        html: () => renderStatusPage(stats, indexed),
      });
    },
  };
}

function createPanelController(deps: ProfilerRoutesDeps): Controller {
  return {
    name: 'Loupe\\Panel\\ProfilerController::panelAction',
    handle: async ({ request, params }) => {
      const lookup = await loadProfile(deps, params['token'] ?? '');
      switch (lookup.kind) {
        case 'none':
          return panelErrorResponse(request, 404, 'There are no profiles', 'No profiles found.');
        case 'missing':
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
      return negotiatedResponse(request, 200, {
        // The stored JSON as it is, with summaries of the sub-request profiles it links to.
        json: () => ({ ...profile, childProfiles: children }),
        html: () => renderProfilePage({ profile, children, panels: deps.panels, panel }, deps.stats()),
      });
    },
  };
}

/**
 * The profiler's routes (WebProfilerBundle's names), registered only with debug on and before
 * the application's. `/_profiler/` renders the search page directly where Symfony redirects to
 * a results URL: one round trip less, and the address stays the same. None of them is
 * profiled (the ProfilerListener skips `_profiler*` routes).
 */
export function createProfilerRoutes(deps: ProfilerRoutesDeps): RouteDefinition[] {
  return [
    { name: '_profiler_home', path: ProfilerPaths.HOME, methods: ['GET'], controller: createSearchController(deps, 'Loupe\\Panel\\ProfilerController::homeAction') },
    { name: '_profiler_search', path: ProfilerPaths.SEARCH, methods: ['GET'], controller: createSearchController(deps, 'Loupe\\Panel\\ProfilerController::searchAction') },
    { name: '_profiler_status', path: ProfilerPaths.STATUS, methods: ['GET'], controller: createStatusController(deps) },
    {
      name: '_profiler',
      path: ProfilerPaths.PROFILE_ROUTE,
      methods: ['GET'],
      requirements: { token: '[0-9a-f]{6}|latest' },
      controller: createPanelController(deps),
    },
  ];
}
