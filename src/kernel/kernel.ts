import { performance } from 'node:perf_hooks';
import { createActor, type Actor } from 'xstate';
import { type Connection } from '../http/connection';
import { LoupeRequest } from '../http/request';
import { type RequestData } from '../http/request-data';
import { type LoupeResponse } from '../http/response';
import { discardBody, isStreamBody, type StreamOutcome } from '../http/response-body';
import { type Controller } from './controller';
import { Exchange, type ExchangeOptions } from './exchange';
import { createKernelMachine } from './kernel-machine';
import { minimalErrorResponse } from './minimal-error-response';
import { serverTimingHeader } from './server-timing';
import { type ListenerRegistry } from './listener-registry';
import { requestContext } from './request-context';

export interface KernelOptions {
  readonly listeners: ListenerRegistry;
  readonly errorController: Controller;
  readonly defaultLocale: string;
  /** Record the controller's, features' and application's spans (debug, or Server-Timing); default on. */
  readonly detailedTrace?: boolean;
  /** Adds a `Server-Timing` header to every response written. */
  readonly serverTiming?: boolean;
  /** Runs each request in the request context, so that `currentRequest()` finds it (REQUEST_CONTEXT). */
  readonly requestContext?: boolean;
  /** Entries a request keeps of each kind of record (PROFILER_MAX_ENTRIES). */
  readonly recordLimit?: number;
  /** Told about an actor that failed outside the machine's own error handling (a bug). */
  readonly onCrash?: (error: unknown, exchange: Exchange) => void;
}

/** A request the kernel is running; the adapter tells it when the client goes away. */
export interface RunningRequest {
  abort(): void;
}

type RequestActor = Actor<ReturnType<typeof createKernelMachine>>;

/** A request in flight: its actor, and where its response goes. */
interface InFlight {
  readonly actor: RequestActor;
  readonly connection: Connection;
}

/** Idle actors kept for the next requests; more than this many at once are let go after their request. */
const MAX_IDLE_ACTORS = 256;

/**
 * Runs each request through an actor of the request machine and keeps track of those in flight.
 * Actors are long-lived: one that finished its request goes back to a pool of idle actors, so a
 * request costs the machine's transitions, not a new actor and a new sub-request actor.
 */
export class Kernel {
  readonly #machine: ReturnType<typeof createKernelMachine>;
  readonly #options: KernelOptions;
  readonly #exchangeOptions: ExchangeOptions;
  readonly #inFlight = new Map<number, InFlight>();
  readonly #idleActors: RequestActor[] = [];
  #idleWaiters: (() => void)[] = [];
  #handled = 0;

  constructor(options: KernelOptions) {
    this.#options = options;
    const { detailedTrace, recordLimit } = options;
    this.#exchangeOptions = { ...(detailedTrace === undefined ? {} : { detailedTrace }), ...(recordLimit === undefined ? {} : { recordLimit }) };
    this.#machine = createKernelMachine({
      listeners: options.listeners,
      errorController: options.errorController,
      send: (exchange) => this.#send(exchange),
      release: (exchange) => this.#release(exchange),
    });
  }

  /** Requests whose actor has not finished yet. */
  get activeRequests(): number {
    return this.#inFlight.size;
  }

  /** Requests handed to the kernel since it was created. */
  get handledRequests(): number {
    return this.#handled;
  }

  /** Runs the machine for one request; the response goes to `connection` when it is ready. */
  handle(data: RequestData, connection: Connection): RunningRequest {
    this.#handled++;
    const exchange = new Exchange(new LoupeRequest(data, this.#options.defaultLocale), null, null, this.#exchangeOptions);
    const actor = this.#idleActors.pop() ?? this.#createActor();
    this.#inFlight.set(exchange.id, { actor, connection });
    const inContext = this.#options.requestContext === true;
    // Everything the machine calls from here on, and every continuation of it, runs in the request's context.
    if (inContext) requestContext.run(exchange, () => actor.send({ type: 'request.received', exchange }));
    else actor.send({ type: 'request.received', exchange });
    return {
      abort: () => {
        if (this.#inFlight.get(exchange.id)?.actor !== actor) return;
        if (inContext) requestContext.run(exchange, () => actor.send({ type: 'request.aborted' }));
        else actor.send({ type: 'request.aborted' });
      },
    };
  }

  #createActor(): RequestActor {
    const actor: RequestActor = createActor(this.#machine, { input: { role: 'main' } });
    actor.subscribe({ error: (error) => this.#crash(actor, error) });
    actor.start();
    return actor;
  }

  /** Resolves once no request is in flight. */
  whenIdle(): Promise<void> {
    if (this.#inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #send(exchange: Exchange): boolean {
    const entry = this.#inFlight.get(exchange.id);
    const { response } = exchange;
    if (response !== null && isStreamBody(response.body)) return this.#sendStream(exchange, response, entry);
    if (entry === undefined || exchange.aborted || response === null) return false;
    if (this.#options.serverTiming === true) response.headers.set('Server-Timing', serverTimingHeader(exchange.trace));
    return entry.connection.write(response, exchange.request);
  }

  /**
   * Hands a streamed body to the connection, which tells when it is over (#streamEnded); the
   * machine waits in `streaming` until then. A body the connection could not take (the client
   * is gone) is let go at once, and is over at once.
   */
  #sendStream(exchange: Exchange, response: LoupeResponse, entry: InFlight | undefined): boolean {
    if (this.#options.serverTiming === true) response.headers.set('Server-Timing', serverTimingHeader(exchange.trace));
    const written = entry !== undefined && !exchange.aborted && entry.connection.write(response, exchange.request, (outcome) => this.#streamEnded(exchange, outcome));
    if (!written) {
      discardBody(response.body);
      this.#streamEnded(exchange, { bytes: 0, firstByteAt: null, endedAt: performance.now(), aborted: true, failed: false, error: null });
    }
    return written;
  }

  /** The streamed body is over: recorded on the exchange, and the machine goes on to kernel.terminate. */
  #streamEnded(exchange: Exchange, outcome: StreamOutcome): void {
    const entry = this.#inFlight.get(exchange.id);
    if (entry === undefined || exchange.streamed !== null) return;
    exchange.endStream(outcome);
    const { actor } = entry;
    // Sent from inside the machine's sendResponse (a HEAD request), the event waits for that step to end.
    if (this.#options.requestContext === true) requestContext.run(exchange, () => actor.send({ type: 'body.finished' }));
    else actor.send({ type: 'body.finished' });
  }

  /** The request is over: its actor is idle, and ready for another unless its sub-request actor failed. */
  #release(exchange: Exchange): void {
    const entry = this.#inFlight.get(exchange.id);
    if (entry === undefined) return;
    this.#inFlight.delete(exchange.id);
    const { actor } = entry;
    const subRequestActor = exchange.subRequest === null ? undefined : actor.getSnapshot().children['subRequest'];
    const reusable = this.#idleActors.length < MAX_IDLE_ACTORS && (subRequestActor === undefined || subRequestActor.getSnapshot().status === 'active');
    if (reusable) this.#idleActors.push(actor);
    // Stopped after its own macrostep, which this runs inside of.
    else queueMicrotask(() => actor.stop());
    this.#wakeIdleWaiters();
  }

  #wakeIdleWaiters(): void {
    if (this.#inFlight.size === 0 && this.#idleWaiters.length > 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /**
   * An actor error is a bug in a provided implementation: answer 500 if nothing was sent, never
   * hang. The actor is stopped by its error and is not used again.
   */
  #crash(actor: RequestActor, error: unknown): void {
    const { exchange } = actor.getSnapshot().context;
    if (!(exchange instanceof Exchange)) return;
    const main = exchange.parent ?? exchange;
    this.#options.onCrash?.(error, main);
    const entry = this.#inFlight.get(main.id);
    if (entry === undefined || entry.actor !== actor) return;
    if (!main.sent && !main.aborted) {
      main.response = null;
      main.sent = entry.connection.write(minimalErrorResponse(), main.request);
    }
    this.#inFlight.delete(main.id);
    this.#wakeIdleWaiters();
  }
}
