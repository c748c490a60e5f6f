import { performance } from 'node:perf_hooks';
import { attributeKey, type Attributes } from '../../kernel/attributes';
import { type CollectedRequest } from '../../kernel/collected-request';
import { defineListener, type Listener } from '../../kernel/listener';
import { CAPTURED_IO } from '../app-io/open-call';
import { type CaptureKind } from '../profiler-config';
import { collectProfile, type CollectOptions } from './collect-profile';
import { PROFILE_TOKEN as TOKEN, profileTokenOf } from './profile-token';
import { type ProfileWriter } from '../write/profile-writer';
import { type RedactionPolicy } from './redaction-policy';
import { type Sampler } from './sampler';
import { type TokenAllocator } from '../storage/token-allocator';

export interface ProfilerListenerOptions {
  readonly allocator: TokenAllocator;
  readonly writer: ProfileWriter;
  /** What each profile records (defaultCollectors and the application's own). */
  readonly collectors: CollectOptions['collectors'];
  /** What a profile may keep (PROFILER_REDACT, PROFILER_COOKIE_ALLOWLIST). */
  readonly redaction: RedactionPolicy;
  /** Counts requests left unprofiled because their profile could not have been stored. */
  readonly onNotProfiled: (reason: string) => void;
  /** Which requests are profiled (PROFILER_SAMPLE, PROFILER_SLOW_MS); without it, all of them. */
  readonly sampler?: Sampler;
  /** The application's I/O captured into each request (PROFILER_CAPTURE); none without it. */
  readonly capture?: readonly CaptureKind[];
}

/** Set once a request was counted as not profiled. */
const NOT_PROFILED = attributeKey<true>('profiler.not_profiled');

/** Milliseconds profiling cost before kernel.terminate. */
const COST = attributeKey<number>('profiler.cost');

/** The profiler's own pages are not profiled, nor the error sub-requests that render their errors. */
function isProfilerRoute(request: CollectedRequest): boolean {
  let main = request;
  while (main.parent !== null) main = main.parent;
  const route = main.request.attributes.get('_route');
  return typeof route === 'string' && (route.startsWith('_profiler') || route.startsWith('_wdt'));
}

const tokenOf = profileTokenOf;

/**
 * Marks what of the application's I/O is captured into each request (kernel.request, first of
 * all), gives each profiled response its token (kernel.response, -100) and hands the finished
 * profiles of a request and its error sub-request to the writer once the response is sent
 * (kernel.terminate, -1024). A token is sent only when the profile can be stored, and only for
 * a request the sampler keeps: a request sampled out gets no token, so no link dangles. It reads
 * each request through the events' public accessors (`collectedRequest`, `attributes`), as any
 * listener of an application would.
 */
export function createProfilerListener(options: ProfilerListenerOptions): Listener {
  const { allocator, writer, sampler } = options;
  const captured: ReadonlySet<CaptureKind> = new Set(options.capture ?? []);
  const isSampledOut = (request: CollectedRequest, status: number): boolean => sampler?.decide(request, status) === 'sampled-out';
  const collect = (request: CollectedRequest, parent: string | null, children: string[]): void => {
    const token = tokenOf(request);
    if (token === null) return;
    const start = performance.now();
    const profile = collectProfile(request, { token, parent, children, collectors: options.collectors, redaction: options.redaction });
    profile.profilerCost.collect = performance.now() - start + (request.attributes.get(COST) ?? 0);
    writer.enqueue(profile);
  };
  const giveToken = (attributes: Attributes): string | null => {
    const token = writer.isAvailable ? allocator.allocate() : null;
    if (token !== null) attributes.set(TOKEN, token);
    return token;
  };
  return defineListener('ProfilerListener', {
    'kernel.request': [
      // Before any listener of the application's can make a call.
      4096,
      ({ attributes }) => {
        if (captured.size > 0) attributes.set(CAPTURED_IO, captured);
      },
    ],
    'kernel.response': [
      -100,
      ({ collectedRequest: request, attributes, response }) => {
        if (isProfilerRoute(request)) return;
        const start = performance.now();
        if (isSampledOut(request, response.status)) return;
        const token = giveToken(attributes);
        if (token === null) {
          // Once per request: one whose kernel.response failed (a session save while Redis is down) passes it again.
          if (attributes.has(NOT_PROFILED)) return;
          attributes.set(NOT_PROFILED, true);
          options.onNotProfiled('Redis is unavailable: the profile could not be stored.');
          return;
        }
        const previous = response.headers.get('X-Debug-Token');
        if (previous !== undefined) response.headers.set('X-Previous-Debug-Token', previous);
        response.headers.set('X-Debug-Token', token);
        attributes.set(COST, performance.now() - start);
      },
    ],
    'kernel.terminate': [
      -1024,
      ({ collectedRequest: request, attributes }) => {
        const sub = request.subRequest;
        if (request.aborted && tokenOf(request) === null && !isProfilerRoute(request) && !isSampledOut(request, 0)) {
          // The client left before kernel.response: record the request all the same.
          giveToken(attributes);
        }
        const subToken = sub === null ? null : tokenOf(sub);
        if (sub !== null && subToken !== null) collect(sub, tokenOf(request), []);
        collect(request, null, subToken === null ? [] : [subToken]);
      },
    ],
  });
}
