/*
 * The messages between the supervisor (the primary process) and its workers, over the IPC channel
 * node:cluster opens for each worker. Plain JSON values: nothing else crosses a process boundary.
 */

/** One worker's counters since it started: its kernel's and, with debug, its profile writer's. */
export interface WorkerCounters {
  /** Requests handed to the worker's kernel. */
  readonly requests: number;
  /** Requests in flight when the counters were taken. */
  readonly active: number;
  /** Profiles stored, dropped, never made and waiting in the writer's queue (`null` without the profiler). */
  readonly stored: number | null;
  readonly dropped: number | null;
  readonly notProfiled: number | null;
  readonly queued: number | null;
  readonly writerState: string | null;
}

/** What the supervisor knows of one worker slot: which process fills it now and how often it was restarted. */
export interface WorkerStatus {
  /** 1 to WORKERS: the slot, kept by a restarted worker. */
  readonly id: number;
  readonly pid: number;
  /** How many times this slot's process was replaced after it died. */
  readonly restarts: number;
  /** When the current process started (ms since the epoch). */
  readonly startedAt: number;
  /** Its latest counters, `null` until it has sent any. */
  readonly counters: WorkerCounters | null;
}

/** Worker → supervisor. */
export type WorkerMessage =
  /** `tuning`: what the worker's listen() changed in its process, as the listening line names it (null for nothing). */
  | { readonly type: 'loupe:listening'; readonly url: string; readonly profilerUrl: string | null; readonly tuning: string | null }
  | { readonly type: 'loupe:start-failed'; readonly message: string }
  | { readonly type: 'loupe:counters'; readonly counters: WorkerCounters };

/** Supervisor → worker: every worker's status, so that any one of them can show all. */
export interface SupervisorMessage {
  readonly type: 'loupe:workers';
  readonly workers: readonly WorkerStatus[];
}

/** The environment variable that tells a process which worker slot it fills. */
export const WORKER_ID_ENV = 'LOUPE_WORKER_ID';

/** How often a worker sends its counters, and the supervisor sends everyone's. */
export const COUNTERS_INTERVAL_MS = 1_000;

export function isWorkerMessage(message: unknown): message is WorkerMessage {
  return typeof message === 'object' && message !== null && typeof (message as { type?: unknown }).type === 'string' && (message as { type: string }).type.startsWith('loupe:');
}
