import cluster, { type Worker } from 'node:cluster';
import net from 'node:net';
import { LoupeError } from '../../errors/loupe-error';
import { type Logger } from '../../log/logger';
import { COUNTERS_INTERVAL_MS, isWorkerMessage, WORKER_ID_ENV, type WorkerCounters, type WorkerMessage, type WorkerStatus } from './worker-protocol';

export interface SupervisorOptions {
  readonly workers: number;
  readonly host: string;
  /** 0 picks one free port for all workers. */
  readonly port: number;
  readonly logger: Logger;
  /** How long a stop waits for the workers to finish before it kills them. */
  readonly stopTimeoutMs?: number;
}

/** Where the workers listen, once every one does. */
export interface Listening {
  readonly url: string;
  readonly port: number;
  readonly profilerUrl: string | null;
  /** What the first worker's listen() changed in its process (each worker tunes its own), null for nothing. */
  readonly tuning: string | null;
}

/** One worker slot: the process filling it now, and what it said. */
interface Slot {
  readonly id: number;
  worker: Worker;
  startedAt: number;
  restarts: number;
  /** Restarts in a row of a process that lived less than STABLE_MS: the backoff's exponent. */
  quickDeaths: number;
  listening: Listening | null;
  startFailure: string | null;
  counters: WorkerCounters | null;
  restartTimer: NodeJS.Timeout | null;
}

/** A worker that lived this long is healthy again: its next crash is restarted at once. */
const STABLE_MS = 10_000;
const FIRST_RESTART_DELAY_MS = 100;
const MAX_RESTART_DELAY_MS = 10_000;

/**
 * Checks that nothing else listens on `host:port` and picks a free port for 0. The workers bind
 * with SO_REUSEPORT so that the kernel spreads connections over them; a bind that way would also
 * silently share a port another such server holds, which this check (a plain bind) refuses first.
 */
function reservePort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error) =>
      reject(new LoupeError('LOUPE_ERR_SERVER_LISTEN_FAILED', `Cannot listen on ${host}:${port}: the address is in use or not available.`, { cause: error })),
    );
    probe.listen({ host, port, exclusive: true }, () => {
      const bound = (probe.address() as net.AddressInfo).port;
      probe.close(() => resolve(bound));
    });
  });
}

function describeExit(code: number | null, signal: string | null): string {
  return signal === null ? `exit code ${String(code)}` : `signal ${signal}`;
}

/**
 * The primary process of `WORKERS=N`: forks N workers (node:cluster) that each run the whole
 * application on the same port, restarts one that dies (with a backoff when it keeps dying), gives
 * every worker everyone's counters for the status page, and stops them all on `stop()`.
 * A worker that cannot start at first fails the whole start with its reason.
 */
export class Supervisor {
  readonly #options: SupervisorOptions;
  readonly #slots: Slot[] = [];
  #port = 0;
  #stopping = false;
  #broadcast: NodeJS.Timeout | null = null;
  #startSettled = false;
  #resolveStart: (listening: Listening) => void = () => undefined;
  #rejectStart: (error: Error) => void = () => undefined;

  constructor(options: SupervisorOptions) {
    this.#options = options;
  }

  /** Resolves once every worker listens; rejects when one of them cannot start. */
  async start(): Promise<Listening> {
    const { host, port, workers } = this.#options;
    this.#port = await reservePort(host, port);
    const started = new Promise<Listening>((resolve, reject) => {
      this.#resolveStart = resolve;
      this.#rejectStart = reject;
    });
    for (let id = 1; id <= workers; id++) this.#slots.push(this.#fork(id, 0, 0));
    this.#broadcast = setInterval(() => this.#sendStatuses(), COUNTERS_INTERVAL_MS);
    this.#broadcast.unref();
    return started;
  }

  /** Every slot's process, restart count and latest counters. */
  statuses(): WorkerStatus[] {
    return this.#slots.map((slot) => ({ id: slot.id, pid: slot.worker.process.pid ?? 0, restarts: slot.restarts, startedAt: slot.startedAt, counters: slot.counters }));
  }

  /**
   * Asks every worker to finish (SIGTERM: each stops accepting, finishes its requests and stores
   * its profiles), kills those still running after `stopTimeoutMs`; resolves with the exit code
   * the supervisor should end with: 0 when every worker ended cleanly.
   */
  async stop(): Promise<number> {
    this.#stopping = true;
    if (this.#broadcast !== null) clearInterval(this.#broadcast);
    const exits = this.#slots.map((slot) => {
      if (slot.restartTimer !== null) clearTimeout(slot.restartTimer);
      return this.#exitOf(slot.worker);
    });
    for (const slot of this.#slots) if (!slot.worker.isDead()) slot.worker.process.kill('SIGTERM');
    const killer = setTimeout(() => {
      for (const slot of this.#slots) if (!slot.worker.isDead()) slot.worker.process.kill('SIGKILL');
    }, this.#options.stopTimeoutMs ?? 30_000);
    const codes = await Promise.all(exits);
    clearTimeout(killer);
    return codes.every((code) => code === 0) ? 0 : 1;
  }

  #fork(id: number, restarts: number, quickDeaths: number): Slot {
    const worker = cluster.fork({ [WORKER_ID_ENV]: String(id), PORT: String(this.#port) });
    const slot: Slot = { id, worker, startedAt: Date.now(), restarts, quickDeaths, listening: null, startFailure: null, counters: null, restartTimer: null };
    worker.on('message', (message: unknown) => {
      if (isWorkerMessage(message)) this.#onMessage(slot, message);
    });
    worker.on('exit', (code, signal) => this.#onExit(slot, worker, code, signal));
    // A message to a worker that is just dying fails; its 'exit' follows and is what counts.
    worker.on('error', () => undefined);
    return slot;
  }

  #onMessage(slot: Slot, message: WorkerMessage): void {
    switch (message.type) {
      case 'loupe:listening':
        slot.listening = { url: message.url, port: this.#port, profilerUrl: message.profilerUrl, tuning: message.tuning };
        if (slot.restarts > 0) this.#options.logger.info({ worker: slot.id, workerPid: slot.worker.process.pid }, `Worker ${slot.id} is serving again (pid ${String(slot.worker.process.pid)}).`);
        this.#settleIfAllListen();
        break;
      case 'loupe:start-failed':
        slot.startFailure = message.message;
        break;
      case 'loupe:counters':
        slot.counters = message.counters;
        break;
    }
  }

  #settleIfAllListen(): void {
    if (this.#startSettled || this.#slots.length < this.#options.workers) return;
    const first = this.#slots[0]?.listening;
    if (first === undefined || first === null || this.#slots.some((slot) => slot.listening === null)) return;
    this.#startSettled = true;
    this.#sendStatuses();
    this.#resolveStart(first);
  }

  #onExit(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    // A stale exit: the slot already has a newer process.
    if (slot.worker !== worker || this.#stopping) return;
    const how = describeExit(code, signal);
    if (!this.#startSettled) {
      this.#startSettled = true;
      const reason = slot.startFailure ?? `Worker ${slot.id} ended (${how}) before it listened.`;
      void this.stop().then(() => this.#rejectStart(new LoupeError('LOUPE_ERR_SERVER_WORKER_START_FAILED', reason)));
      return;
    }
    const quickDeaths = Date.now() - slot.startedAt < STABLE_MS ? slot.quickDeaths + 1 : 0;
    const delay = Math.min(FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, quickDeaths - 1), MAX_RESTART_DELAY_MS);
    const pid = worker.process.pid;
    this.#options.logger.error(
      { worker: slot.id, workerPid: pid, code, signal, restarts: slot.restarts + 1 },
      `Worker ${slot.id} (pid ${String(pid)}) ended (${how})${slot.startFailure === null ? '' : `: ${slot.startFailure}`}; restarting it in ${delay} ms.`,
    );
    slot.listening = null;
    slot.restartTimer = setTimeout(() => {
      const next = this.#fork(slot.id, slot.restarts + 1, quickDeaths);
      this.#slots[this.#slots.indexOf(slot)] = next;
    }, delay);
  }

  /**
   * The code a worker ends with. One already dead (and logged) when the stop began counts as clean,
   * as does one that SIGTERM ended before it had set up its handlers: it was still starting, and
   * had served nothing.
   */
  #exitOf(worker: Worker): Promise<number | null> {
    if (worker.isDead()) return Promise.resolve(0);
    return new Promise((resolve) => worker.once('exit', (code, signal) => resolve(signal === null ? code : signal === 'SIGTERM' ? 0 : 1)));
  }

  #sendStatuses(): void {
    const workers = this.statuses();
    for (const slot of this.#slots) {
      if (slot.worker.isConnected()) slot.worker.send({ type: 'loupe:workers', workers });
    }
  }
}
