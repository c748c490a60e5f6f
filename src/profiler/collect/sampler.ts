import { type CollectedRequest } from '../../kernel/collected-request';
import { LoupeError } from '../../errors/loupe-error';

/** Why a request is profiled or not: drawn by the rate, kept although not drawn (error, slow), or left out. */
export type SamplingDecision = 'sampled' | 'kept-error' | 'kept-slow' | 'sampled-out';

/** What sampling did in this process since it started. */
export interface SamplingStats {
  /** The share of requests profiled by draw (PROFILER_SAMPLE). */
  readonly rate: number;
  /** Requests at least this slow are always profiled (PROFILER_SLOW_MS). */
  readonly slowMs: number;
  /** Requests not drawn and neither failed nor slow: no token, no profile. */
  sampledOut: number;
  /** Requests not drawn but profiled all the same: a 5xx or a server error. */
  keptAsError: number;
  /** Requests not drawn but profiled all the same: at least `slowMs` long. */
  keptAsSlow: number;
}

export interface SamplerOptions {
  readonly rate: number;
  readonly slowMs: number;
  /** A number in [0, 1); Math.random by default. */
  readonly random?: () => number;
}

/** An error that is the server's fault: anything but an HTTP error for a client (4xx). */
function isServerError(error: unknown): boolean {
  return !(error instanceof LoupeError) || error.statusCode >= 500;
}

/**
 * Decides which requests are profiled on a busy server. The decision is made once per request,
 * at its first kernel.response (the error sub-request's when there is one), before any token is
 * sent: the status and the errors are known then, and the time taken so far. A request not drawn
 * is kept when its status is 5xx, when it raised a server error, or when it already took
 * `slowMs`; what it takes after kernel.response (writing the response, kernel.terminate) is not
 * counted, since a token cannot be taken back once sent.
 */
export class Sampler {
  readonly stats: SamplingStats;
  readonly #random: () => number;
  /** The decision of each main request, shared with its error sub-request; gone with the request. */
  readonly #decisions = new WeakMap<CollectedRequest, SamplingDecision>();

  constructor(options: SamplerOptions) {
    this.stats = { rate: options.rate, slowMs: options.slowMs, sampledOut: 0, keptAsError: 0, keptAsSlow: 0 };
    this.#random = options.random ?? Math.random;
  }

  /** Whether `request` (main or sub-request) is profiled, with `status` its response's status. */
  decide(request: CollectedRequest, status: number): SamplingDecision {
    // The rate 1 (the default) keeps every request: nothing to draw, nor to remember.
    if (this.stats.rate >= 1) return 'sampled';
    let main = request;
    while (main.parent !== null) main = main.parent;
    const decided = this.#decisions.get(main);
    if (decided !== undefined) return decided;
    const decision = this.#draw(main, status);
    this.#decisions.set(main, decision);
    return decision;
  }

  #draw(main: CollectedRequest, status: number): SamplingDecision {
    if (this.#random() < this.stats.rate) return 'sampled';
    if (status >= 500 || main.errors.some(isServerError)) {
      this.stats.keptAsError += 1;
      return 'kept-error';
    }
    if (main.trace.now() >= this.stats.slowMs) {
      this.stats.keptAsSlow += 1;
      return 'kept-slow';
    }
    this.stats.sampledOut += 1;
    return 'sampled-out';
  }
}
