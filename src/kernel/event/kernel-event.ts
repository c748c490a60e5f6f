import { type LoupeRequest } from '../../http/request';
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

  /** The request this phase handles (for an error sub-request, its GET copy of the parent's). */
  get request(): LoupeRequest {
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
  get parentRequest(): LoupeRequest | null {
    return this.exchange.parent?.request ?? null;
  }

  /** The typed state listeners and the controller share for this request. */
  get attributes(): Attributes {
    return this.exchange.attributes;
  }

  /** The user the firewall authenticated; `null` for an anonymous request, or before the firewall ran. */
  get user(): AuthenticatedUser | null {
    return this.exchange.attributes.get(KernelAttributes.USER) ?? null;
  }

  /** The request's lazy session; `null` before the session listener ran (kernel.request, priority 128). */
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

  /** True once a listener called `stopPropagation()` (or a `setResponse` that ends the phase). */
  get isPropagationStopped(): boolean {
    return this.#propagationStopped;
  }

  /** The phase's listeners after this one do not run. */
  stopPropagation(): void {
    this.#propagationStopped = true;
  }
}
