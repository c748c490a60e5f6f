import { type LoupeRequest } from '../../../http/request';
import { type LoupeResponse } from '../../../http/response';
import { type Controller } from '../../../kernel/controller';
import { EXPLAIN_DEFAULTS, type ExplainConfig } from '../../explain/explain-config';
import { explainStoredQuery } from '../../explain/explain-stored-query';
import { notFoundResponse } from './compare-response';
import { crossSiteRefusal } from './cross-site-refusal';
import { renderExplainPage } from './explain-page';
import { loadProfile, type ProfileSource } from './load-profile';
import { ProfilerStorageUnavailableError } from './guard-storage';
import { negotiatedResponse, panelErrorResponse, storageUnavailableResponse } from './panel-response';

/** What the EXPLAIN action reads: the profiles, and where EXPLAIN connects (PROFILER_EXPLAIN_*). */
export interface ExplainSource extends ProfileSource {
  readonly explain?: ExplainConfig;
}

/**
 * `POST /_profiler/{token}/explain/{query}` (and `…/analyze`): the plan of one query of the
 * profile, as a page (the tree, the ANALYZE button) or as JSON, or why it was not explained —
 * 403 from another site's page, 404 for no such query, 422 for a query EXPLAIN refuses, 503 when
 * not configured, 502 when the database failed. The access rule of every profiler page applies
 * before (PROFILER_ALLOWED_IPS, PROFILER_ALLOWED_HOSTS).
 */
export async function explainResponse(source: ExplainSource, request: LoupeRequest, token: string, number: number, analyze: boolean): Promise<LoupeResponse> {
  const crossSite = crossSiteRefusal(request);
  if (crossSite !== null) return panelErrorResponse(request, 403, 'Forbidden', crossSite);
  const lookup = await loadProfile(source, token);
  if (lookup.kind !== 'found') return notFoundResponse(request, lookup);
  const { profile } = lookup;
  const explained = await explainStoredQuery(profile, number, source.explain ?? EXPLAIN_DEFAULTS, analyze);
  if (!explained.ok) return panelErrorResponse(request, explained.status, explained.title, explained.reason);
  return negotiatedResponse(request, 200, {
    json: () => ({
      token: profile.token,
      query: number,
      sql: explained.query.sql,
      params: explained.query.params,
      database: explained.database,
      server: explained.output.server,
      analyze: explained.output.analyze,
      statement: explained.output.statement,
      fullScans: explained.fullScans,
      tree: explained.tree,
      plan: explained.output.plan,
    }),
    html: () => renderExplainPage(profile.token, number, explained),
  });
}

/** The controller of `POST /_profiler/{token}/explain/{query}` (with `analyze`: its `/analyze`); a 503 while the storage is unavailable, as every page. */
export function createExplainController(source: ExplainSource, analyze: boolean): Controller {
  return {
    name: analyze ? 'profiler.explainAnalyze' : 'profiler.explain',
    handle: async ({ request, params }) => {
      try {
        return await explainResponse(source, request, params['token'] ?? '', Number(params['query']), analyze);
      } catch (error) {
        if (error instanceof ProfilerStorageUnavailableError) return storageUnavailableResponse(request, error);
        throw error;
      }
    },
  };
}
