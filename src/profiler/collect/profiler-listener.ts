import { performance } from 'node:perf_hooks';
import { attributeKey } from '../../kernel/attributes';
import { type CollectedRequest } from '../../kernel/collected-request';
import { defineListener, type Listener } from '../../kernel/listener';
import { CAPTURED_IO } from '../app-io/open-call';
import { type ProfilerCore } from '../core/profiler-core';
import { PROFILE_TOKEN as TOKEN, profileTokenOf as tokenOf } from './profile-token';

/** What of the core Loupe's kernel drives: the same calls any server makes. */
export type KernelProfilerCore = Pick<ProfilerCore, 'captured' | 'issueToken' | 'finish'>;

/** Milliseconds profiling cost before kernel.terminate. */
const COST = attributeKey<number>('profiler.cost');

/** The profiler's own pages are not profiled, nor the error sub-requests that render their errors. */
function isProfilerRoute(request: CollectedRequest): boolean {
  let main = request;
  while (main.parent !== null) main = main.parent;
  const route = main.request.attributes.get('_route');
  return typeof route === 'string' && (route.startsWith('_profiler') || route.startsWith('_wdt'));
}

/**
 * Loupe's kernel as a client of the profiler core, through the events' public accessors as any
 * listener of an application would: marks what of the application's I/O is captured into each
 * request (kernel.request, first of all), gives each profiled response its token (kernel.response,
 * -100) and hands the finished request and its error sub-request to the core once the response is
 * sent (kernel.terminate, -1024). A token is sent only when the profile can be stored, and only for
 * a request the sampler keeps: a request sampled out gets no token, so no link dangles.
 */
export function createProfilerListener(core: KernelProfilerCore): Listener {
  const finish = (request: CollectedRequest, parent: string | null, children: string[]): void => {
    const token = tokenOf(request);
    if (token !== null) core.finish(request, { token, parent, children, cost: request.attributes.get(COST) ?? 0 });
  };
  return defineListener('ProfilerListener', {
    'kernel.request': [
      // Before any listener of the application's can make a call.
      4096,
      ({ attributes }) => {
        if (core.captured.size > 0) attributes.set(CAPTURED_IO, core.captured);
      },
    ],
    'kernel.response': [
      -100,
      ({ collectedRequest: request, attributes, response }) => {
        if (isProfilerRoute(request)) return;
        const start = performance.now();
        const token = core.issueToken(request, response.status);
        if (token === null) return;
        attributes.set(TOKEN, token);
        const previous = response.headers.get('X-Debug-Token');
        if (previous !== undefined) response.headers.set('X-Previous-Debug-Token', previous);
        response.headers.set('X-Debug-Token', token);
        attributes.set(COST, performance.now() - start);
      },
    ],
    'kernel.terminate': [
      -1024,
      ({ collectedRequest: request, attributes }) => {
        if (request.aborted && tokenOf(request) === null && !isProfilerRoute(request)) {
          // The client left before kernel.response: record the request all the same.
          const token = core.issueToken(request, 0);
          if (token !== null) attributes.set(TOKEN, token);
        }
        const sub = request.subRequest;
        const subToken = sub === null ? null : tokenOf(sub);
        if (sub !== null && subToken !== null) finish(sub, tokenOf(request), []);
        finish(request, null, subToken === null ? [] : [subToken]);
      },
    ],
  });
}
