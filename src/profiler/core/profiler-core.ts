import { performance } from 'node:perf_hooks';
import { type CollectedRequest } from '../../kernel/collected-request';
import { CAPTURED_IO } from '../app-io/open-call';
import { collectProfile } from '../collect/collect-profile';
import { type RedactionPolicy } from '../collect/redaction-policy';
import { type Sampler, type SamplingStats } from '../collect/sampler';
import { type ProfileCollector } from '../collector';
import { type CaptureLibrary } from '../profiler-config';
import { type TokenSource } from '../storage/token-source';
import { type ProfileWriter } from '../write/profile-writer';
import { ProfiledRequest } from './profiled-request';
import { type RequestStart } from './request-start';

export interface ProfilerCoreParts {
  readonly allocator: TokenSource;
  readonly writer: ProfileWriter;
  /** What each profile records (defaultCollectors and the application's own). */
  readonly collectors: readonly ProfileCollector[];
  /** What a profile may keep (PROFILER_REDACT, PROFILER_COOKIE_ALLOWLIST). */
  readonly redaction: RedactionPolicy;
  /** Which requests are profiled (PROFILER_SAMPLE, PROFILER_SLOW_MS); without it, all of them. */
  readonly sampler?: Sampler;
  /** The libraries whose calls are captured into each request (PROFILER_CAPTURE: see capturedLibraries). */
  readonly capture: readonly CaptureLibrary[];
  /** Entries a request keeps of each kind of call (PROFILER_MAX_ENTRIES). */
  readonly recordLimit: number;
  /** Told of each request left unprofiled because its profile could not have been stored. */
  readonly onNotProfiled: (reason: string) => void;
  /** The reason it is told; by default that Redis is unavailable. */
  readonly notProfiledReason?: string;
}

/** A finished request's profile: its token, its parent's (for an error sub-request) and its sub-requests'. */
export interface FinishedProfile {
  readonly token: string;
  readonly parent: string | null;
  readonly children: readonly string[];
  /** Milliseconds the profiler spent on the request before it finished (giving the token). */
  readonly cost?: number;
}

/**
 * What every server drives, Loupe's kernel as any other: a token for each response the profiler
 * keeps (sampling, and only while a profile can be stored), then the finished request collected
 * by every collector, redacted, and handed to the writer, which stores and announces it. A server
 * without a kernel of Loupe's gets a handle per request from `startRequest`.
 */
export class ProfilerCore {
  readonly #parts: ProfilerCoreParts;
  readonly #captured: ReadonlySet<CaptureLibrary>;
  /** Requests already counted as not profiled: one whose response is retried is counted once. */
  readonly #notProfiled = new WeakSet<CollectedRequest>();

  constructor(parts: ProfilerCoreParts) {
    this.#parts = parts;
    this.#captured = new Set(parts.capture);
  }

  /** What sampling (PROFILER_SAMPLE) left out and kept, so far; all zeros without a sampler. */
  get samplingStats(): SamplingStats {
    return { ...(this.#parts.sampler?.stats ?? { rate: 1, slowMs: 0, sampledOut: 0, keptAsError: 0, keptAsSlow: 0 }) };
  }

  /** What of the application's I/O is captured into each request; a server marks its requests with it (see CAPTURED_IO). */
  get captured(): ReadonlySet<CaptureLibrary> {
    return this.#captured;
  }

  /**
   * Starts profiling a request of a server that is not Loupe's kernel: the handle records its
   * states, spans, log, calls and errors, gives its response a token and, ended, stores its profile.
   */
  startRequest(start: RequestStart): ProfiledRequest {
    const request = new ProfiledRequest(start, this, this.#parts.recordLimit);
    if (this.#captured.size > 0) request.attributes.set(CAPTURED_IO, this.#captured);
    return request;
  }

  /**
   * The token of `request`'s profile, its response about to be sent with `status` (0 when none
   * was): `null` when sampling leaves the request out, or when no profile could be stored now (a
   * token is only sent for a profile that can be read back).
   */
  issueToken(request: CollectedRequest, status: number): string | null {
    const { sampler, writer, allocator } = this.#parts;
    if (sampler?.decide(request, status) === 'sampled-out') return null;
    const token = writer.isAvailable ? allocator.allocate() : null;
    if (token === null && !this.#notProfiled.has(request)) {
      this.#notProfiled.add(request);
      this.#parts.onNotProfiled(this.#parts.notProfiledReason ?? 'Redis is unavailable: the profile could not be stored.');
    }
    return token;
  }

  /** Collects `request`'s profile (synchronously: nothing of the request outlives this call) and queues it for storage. */
  finish(request: CollectedRequest, profile: FinishedProfile): void {
    const { collectors, redaction, writer } = this.#parts;
    const start = performance.now();
    const collected = collectProfile(request, { token: profile.token, parent: profile.parent, children: profile.children, collectors, redaction });
    // To the microsecond, as the timeline's times: the clock's other digits are noise, and cost JSON more to write.
    collected.profilerCost.collect = Math.round((performance.now() - start + (profile.cost ?? 0)) * 1000) / 1000;
    writer.enqueue(collected);
  }
}
