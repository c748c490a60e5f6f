import { performance } from 'node:perf_hooks';
import { attributeKey } from '../../kernel/attributes';
import { type Exchange } from '../../kernel/exchange';
import { defineListener, type Listener } from '../../kernel/listener';
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
}

/** Set once a request was counted as not profiled. */
const NOT_PROFILED = attributeKey<true>('profiler.not_profiled');

/** Milliseconds profiling cost before kernel.terminate. */
const COST = attributeKey<number>('profiler.cost');

/** The profiler's own pages are not profiled, nor the error sub-requests that render their errors. */
function isProfilerRoute(exchange: Exchange): boolean {
  let main = exchange;
  while (main.parent !== null) main = main.parent;
  const route = main.request.attributes.get('_route');
  return typeof route === 'string' && (route.startsWith('_profiler') || route.startsWith('_wdt'));
}

const tokenOf = profileTokenOf;

/**
 * Gives each profiled response its token (kernel.response, -100) and hands the finished profiles
 * of a request and its error sub-request to the writer once the response is sent
 * (kernel.terminate, -1024). A token is sent only when the profile can be stored, and only for
 * a request the sampler keeps: a request sampled out gets no token, so no link dangles.
 */
export function createProfilerListener(options: ProfilerListenerOptions): Listener {
  const { allocator, writer, sampler } = options;
  const isSampledOut = (exchange: Exchange, status: number): boolean => sampler?.decide(exchange, status) === 'sampled-out';
  const collect = (exchange: Exchange, parent: string | null, children: string[]): void => {
    const token = tokenOf(exchange);
    if (token === null) return;
    const start = performance.now();
    const profile = collectProfile(exchange, { token, parent, children, collectors: options.collectors, redaction: options.redaction });
    profile.profilerCost.collect = performance.now() - start + (exchange.attributes.get(COST) ?? 0);
    writer.enqueue(profile);
  };
  return defineListener('ProfilerListener', {
    'kernel.response': [
      -100,
      ({ exchange, response }) => {
        if (isProfilerRoute(exchange)) return;
        const start = performance.now();
        if (isSampledOut(exchange, response.status)) return;
        const token = writer.isAvailable ? allocator.allocate() : null;
        if (token === null) {
          // Once per request: one whose kernel.response failed (a session save while Redis is down) passes it again.
          if (exchange.attributes.has(NOT_PROFILED)) return;
          exchange.attributes.set(NOT_PROFILED, true);
          options.onNotProfiled('Redis is unavailable: the profile could not be stored.');
          return;
        }
        exchange.attributes.set(TOKEN, token);
        const previous = response.headers.get('X-Debug-Token');
        if (previous !== undefined) response.headers.set('X-Previous-Debug-Token', previous);
        response.headers.set('X-Debug-Token', token);
        exchange.attributes.set(COST, performance.now() - start);
      },
    ],
    'kernel.terminate': [
      -1024,
      ({ exchange }) => {
        const mainToken = tokenOf(exchange);
        const sub = exchange.subRequest;
        if (exchange.aborted && mainToken === null && !isProfilerRoute(exchange) && !isSampledOut(exchange, 0)) {
          // The client left before kernel.response: record the request all the same.
          const token = writer.isAvailable ? allocator.allocate() : null;
          if (token !== null) exchange.attributes.set(TOKEN, token);
        }
        const subToken = sub === null ? null : tokenOf(sub);
        if (sub !== null && subToken !== null) collect(sub, tokenOf(exchange), []);
        collect(exchange, null, subToken === null ? [] : [subToken]);
      },
    ],
  });
}
