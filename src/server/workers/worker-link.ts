import cluster from 'node:cluster';
import { COUNTERS_INTERVAL_MS, WORKER_ID_ENV, type SupervisorMessage, type WorkerCounters, type WorkerMessage, type WorkerStatus } from './worker-protocol';

/**
 * This process's side of the supervisor's IPC channel, when it runs as one of its workers: it
 * reports the bound address once and its counters every second, and keeps the latest status of
 * every worker for the profiler's status page. A process that is no worker gets `null`.
 */
export class WorkerLink {
  readonly id: number;
  #workers: readonly WorkerStatus[] = [];
  #timer: NodeJS.Timeout | null = null;

  private constructor(id: number) {
    this.id = id;
    process.on('message', (message: unknown) => {
      if ((message as Partial<SupervisorMessage> | null)?.type === 'loupe:workers') this.#workers = (message as SupervisorMessage).workers;
    });
  }

  static #current: WorkerLink | null | undefined;

  /** The link when this process is a supervisor's worker (node:cluster worker with a slot id), else `null`. */
  static current(): WorkerLink | null {
    if (WorkerLink.#current !== undefined) return WorkerLink.#current;
    const id = Number(process.env[WORKER_ID_ENV]);
    return (WorkerLink.#current = cluster.isWorker && Number.isInteger(id) && id > 0 ? new WorkerLink(id) : null);
  }

  /** Every worker's latest status, as the supervisor last sent it (empty until it has). */
  get workers(): readonly WorkerStatus[] {
    return this.#workers;
  }

  listening(url: string, profilerUrl: string | null, tuning: string | null): void {
    this.#send({ type: 'loupe:listening', url, profilerUrl, tuning });
  }

  /** Tells the supervisor why this worker cannot start; resolves once the message is out, so the worker may exit. */
  startFailed(message: string): Promise<void> {
    return new Promise((resolve) => {
      if (!process.connected || process.send === undefined) return resolve();
      process.send({ type: 'loupe:start-failed', message } satisfies WorkerMessage, () => resolve());
    });
  }

  /** Sends `counters()` now and every second until `stopReporting`. */
  reportCounters(counters: () => WorkerCounters): void {
    const report = (): void => this.#send({ type: 'loupe:counters', counters: counters() });
    report();
    this.#timer = setInterval(report, COUNTERS_INTERVAL_MS);
    this.#timer.unref();
  }

  stopReporting(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  #send(message: WorkerMessage): void {
    // The channel is gone once the supervisor died or disconnected this worker: nobody to tell.
    if (process.connected) process.send?.(message);
  }
}
