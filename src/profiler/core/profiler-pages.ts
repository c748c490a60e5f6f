import { createIpRangeMatcher } from '../../http/ip-range-matcher';
import { LoupeRequest } from '../../http/request';
import { LoupeResponse } from '../../http/response';
import { isStreamBody } from '../../http/response-body';
import { Attributes } from '../../kernel/attributes';
import { Trace } from '../../kernel/trace';
import { routeMissError } from '../../routing/route-miss';
import { UrlMatcherRouter } from '../../routing/url-matcher-router';
import { PROFILER_PREFIX, TOOLBAR_PREFIX } from '../profiler-paths';
import { panelErrorResponse } from '../ui/panel/panel-response';
import { createProfilerRoutes, type ProfilerRoutesDeps } from '../ui/panel/profiler-routes';
import { createHostMatcher } from '../ui/profiler-hosts';
import { requestDataOf, type RequestStart } from './request-start';

/** A response of the profiler's pages, as a server writes it: status, header lines, body. */
export interface PageResponse {
  readonly status: number;
  /** Header lines in order; a header may come several times. */
  readonly headers: readonly (readonly [name: string, value: string])[];
  /** Empty for HEAD. */
  readonly body: string | Buffer;
}

export interface ProfilerPagesOptions extends ProfilerRoutesDeps {
  /** The client addresses that may read profiles (PROFILER_ALLOWED_IPS). */
  readonly allowedIps: readonly string[];
  /** Host names answered besides IP addresses and localhost (PROFILER_ALLOWED_HOSTS). */
  readonly allowedHosts: readonly string[];
}

/** The profiler's pages (`/_profiler…`, `/_wdt…`) for a server that is not Loupe's kernel. */
export interface ProfilerPages {
  /** Whether `path` (the request target's path) is one of the profiler's. */
  owns(path: string): boolean;
  /** The answer to a request for one of the profiler's pages; never throws. */
  serve(start: RequestStart): Promise<PageResponse>;
}

/** What the pages' controllers are given besides the request: nothing of a session, a user or a timed trace. */
function controllerArguments(request: LoupeRequest, params: Readonly<Record<string, string>>) {
  return { request, params, session: null, user: null, locale: request.locale, error: null, attributes: new Attributes(), log: () => undefined, stopwatch: new Trace(false) };
}

function statusOf(error: unknown): number {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status <= 599 ? status : 500;
}

function pageResponse(response: LoupeResponse, isHead: boolean): PageResponse {
  const { body } = response;
  // The profiler's pages are rendered whole: none of them streams.
  return { status: response.status, headers: [...response.headers.lines()], body: isHead || isStreamBody(body) ? '' : body };
}

/**
 * The same pages, JSON API and toolbar content Loupe's kernel serves, with the same access rule
 * (PROFILER_ALLOWED_IPS and the Host check against DNS rebinding, a 403 otherwise), answered by
 * routing the profiler's own routes without the request machine: an adapter mounts them into the
 * application's server, or `loupe profiler:serve` serves them alone.
 */
export function createProfilerPages(options: ProfilerPagesOptions): ProfilerPages {
  const { allowedIps, allowedHosts, ...deps } = options;
  const router = new UrlMatcherRouter(createProfilerRoutes(deps));
  const isAllowedAddress = createIpRangeMatcher(allowedIps);
  const isAllowedHost = createHostMatcher(allowedHosts);
  const owns = (path: string): boolean => path === PROFILER_PREFIX || path.startsWith(`${PROFILER_PREFIX}/`) || path.startsWith(`${TOOLBAR_PREFIX}/`);
  const answer = async (request: LoupeRequest): Promise<LoupeResponse> => {
    const host = request.header('host') ?? '';
    if (!isAllowedHost(host)) return panelErrorResponse(request, 403, 'Forbidden', `The profiler answers only for an IP address, localhost or a host of PROFILER_ALLOWED_HOSTS, not for the Host "${host}".`);
    const address = request.data.remoteAddress;
    if (!isAllowedAddress(address)) return panelErrorResponse(request, 403, 'Forbidden', `The profiler is not available to the client address "${address}": it is outside PROFILER_ALLOWED_IPS.`);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const match = router.match(method, request.path);
    // The routing error carries the status of the miss (404 or 405) for the page answering it.
    if (!match.matched) throw routeMissError(match, request.path);
    request.attributes.set('_route', match.name);
    for (const [name, value] of Object.entries(match.params)) request.attributes.set(name, value);
    const response = await match.controller.handle(controllerArguments(request, match.params));
    if (!(response instanceof LoupeResponse)) throw new Error(`The profiler's controller ${match.controller.name} answered no Response.`);
    return response;
  };
  return {
    owns,
    serve: async (start) => {
      const request = new LoupeRequest(requestDataOf(start), 'en');
      const isHead = request.data.method === 'HEAD';
      try {
        return pageResponse(await answer(request), isHead);
      } catch (error) {
        const status = statusOf(error);
        const message = error instanceof Error ? error.message : String(error);
        return pageResponse(panelErrorResponse(request, status, status === 404 ? 'Not Found' : 'Error', message), isHead);
      }
    },
  };
}
