import { createActor, type Actor } from 'xstate';
import { type Connection } from '../http/connection';
import { Request } from '../http/request';
import { type RequestData } from '../http/request-data';
import { type Controller } from './controller';
import { Exchange } from './exchange';
import { createKernelMachine } from './kernel-machine';
import { minimalErrorResponse } from './minimal-error-response';
import { serverTimingHeader } from './server-timing';
import { type ListenerRegistry } from './listener-registry';

export interface KernelOptions {
  readonly listeners: ListenerRegistry;
  readonly errorController: Controller;
  readonly defaultLocale: string;
  /** Record the controller's, features' and application's spans (debug, or Server-Timing); default on. */
  readonly detailedTrace?: boolean;
  /** Adds a `Server-Timing` header to every response written. */
  readonly serverTiming?: boolean;
  /** Told about an actor that failed outside the machine's own error handling (a bug). */
  readonly onCrash?: (error: unknown, exchange: Exchange) => void;
}

/** A request the kernel is running; the adapter tells it when the client goes away. */
export interface RunningRequest {
  abort(): void;
}

type RequestActor = Actor<ReturnType<typeof createKernelMachine>>;

/** Runs one request-machine actor per request and keeps track of those in flight. */
export class Kernel {
  readonly #machine: ReturnType<typeof createKernelMachine>;
  readonly #options: KernelOptions;
  readonly #inFlight = new Map<number, { actor: RequestActor; connection: Connection }>();
  #idleWaiters: (() => void)[] = [];

  constructor(options: KernelOptions) {
    this.#options = options;
    this.#machine = createKernelMachine({
      listeners: options.listeners,
      errorController: options.errorController,
      send: (exchange) => this.#send(exchange),
    });
  }

  /** Requests whose actor has not finished yet. */
  get activeRequests(): number {
    return this.#inFlight.size;
  }

  /** Starts the machine for one request; the response goes to `connection` when it is ready. */
  handle(data: RequestData, connection: Connection): RunningRequest {
    const exchange = new Exchange(new Request(data, this.#options.defaultLocale), null, null, this.#options.detailedTrace ?? true);
    const actor: RequestActor = createActor(this.#machine, { input: exchange });
    this.#inFlight.set(exchange.id, { actor, connection });
    actor.subscribe({
      complete: () => this.#release(exchange.id),
      error: (error) => this.#crash(exchange, error),
    });
    actor.start();
    return {
      abort: () => {
        if (actor.getSnapshot().status === 'active') actor.send({ type: 'request.aborted' });
      },
    };
  }

  /** Resolves once no request is in flight. */
  whenIdle(): Promise<void> {
    if (this.#inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #send(exchange: Exchange): boolean {
    const entry = this.#inFlight.get(exchange.id);
    if (entry === undefined || exchange.aborted || exchange.response === null) return false;
    if (this.#options.serverTiming === true) exchange.response.headers.set('Server-Timing', serverTimingHeader(exchange.trace));
    return entry.connection.write(exchange.response, exchange.request);
  }

  #release(id: number): void {
    this.#inFlight.delete(id);
    if (this.#inFlight.size === 0 && this.#idleWaiters.length > 0) {
      const waiters = this.#idleWaiters;
      this.#idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** An actor error is a bug in a provided implementation: answer 500 if nothing was sent, never hang. */
  #crash(exchange: Exchange, error: unknown): void {
    this.#options.onCrash?.(error, exchange);
    const entry = this.#inFlight.get(exchange.id);
    if (entry !== undefined && !exchange.sent && !exchange.aborted) {
      exchange.response = null;
      exchange.sent = entry.connection.write(minimalErrorResponse(), exchange.request);
    }
    this.#release(exchange.id);
  }
}
