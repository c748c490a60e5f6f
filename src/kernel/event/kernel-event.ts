import { type Request } from '../../http/request';
import { type AuthenticatedUser, type Session } from '../../http/session';
import { type Attributes } from '../attributes';
import { type CollectedRequest } from '../collected-request';
import { type Exchange } from '../exchange';
import { KernelAttributes } from '../kernel-attributes';
import { type Stopwatch } from '../stopwatch';
import { type LogLevel } from '../trace';

/**
 * What every phase hands its listeners (Symfony's KernelEvent): the request, whether it is the
 * main request, the typed attributes listeners share, and the request's log. A listener that
 * stops propagation keeps the phase's later listeners from running.
 */
export abstract class KernelEvent {
  // Assigned by the constructor only, not declared as a field: a field is defined by an
  // initializer that the events of every subclass share, which V8 then runs on its slow path.
  /**
   * The request's whole state, for Loupe's own listeners; applications use the accessors.
   * @internal
   */
  declare readonly exchange: Exchange;
  #propagationStopped = false;

  /** @internal */
  constructor(exchange: Exchange) {
    this.exchange = exchange;
  }

  get request(): Request {
    return this.exchange.request;
  }

  /**
   * The request as a profiler collects it (Symfony's `collect(Request, Response, ?Throwable)`), read
   * only: its response, errors, sub-request, timings and what was recorded into it.
   */
  get collectedRequest(): CollectedRequest {
    return this.exchange;
  }

  /** False for an error sub-request. */
  get isMainRequest(): boolean {
    return this.exchange.parent === null;
  }

  /** The request that started this sub-request, or `null` for a main request. */
  get parentRequest(): Request | null {
    return this.exchange.parent?.request ?? null;
  }

  get attributes(): Attributes {
    return this.exchange.attributes;
  }

  get user(): AuthenticatedUser | null {
    return this.exchange.attributes.get(KernelAttributes.USER) ?? null;
  }

  get session(): Session | null {
    return this.exchange.attributes.get(KernelAttributes.SESSION) ?? null;
  }

  /** Adds an entry to the request's log (the profiler's Logs panel); kept only with a detailed trace (`stopwatch.detailed`: debug, or Server-Timing). */
  log(level: LogLevel, message: string, context: Readonly<Record<string, unknown>> = {}): void {
    this.exchange.trace.log(level, message, context);
  }

  /** Times parts of the listener into the request's timeline; its spans nest in the listener's. */
  get stopwatch(): Stopwatch {
    return this.exchange.trace;
  }

  get isPropagationStopped(): boolean {
    return this.#propagationStopped;
  }

  /** The phase's listeners after this one do not run. */
  stopPropagation(): void {
    this.#propagationStopped = true;
  }
}
