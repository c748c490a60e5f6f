import { performance } from 'node:perf_hooks';

export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical';

export interface PhaseRecord {
  readonly name: string;
  /** Milliseconds since the request started. */
  readonly start: number;
  duration: number;
}

export interface ListenerRecord {
  readonly phase: string;
  readonly name: string;
  readonly priority: number;
  /** Milliseconds since the request started. */
  readonly start: number;
  readonly duration: number;
}

export interface LogRecord {
  readonly level: LogLevel;
  readonly message: string;
  readonly context: Readonly<Record<string, unknown>>;
  /** Milliseconds since the request started. */
  readonly at: number;
}

/**
 * What the request machine records while one request runs: the states it entered with their
 * timing, the listeners run in each phase, and log entries. The profiler stores it.
 */
export class Trace {
  /** Wall-clock start, epoch milliseconds. */
  readonly startedAt = Date.now();
  readonly #origin = performance.now();
  readonly states: PhaseRecord[] = [];
  readonly listeners: ListenerRecord[] = [];
  readonly logs: LogRecord[] = [];
  #current: PhaseRecord | null = null;

  /** Milliseconds since the request started. */
  now(): number {
    return performance.now() - this.#origin;
  }

  /** Closes the current state and opens `name`. */
  enter(name: string): void {
    const now = this.now();
    if (this.#current !== null) this.#current.duration = now - this.#current.start;
    this.#current = { name, start: now, duration: 0 };
    this.states.push(this.#current);
  }

  /** Closes the last state; the request is over. */
  finish(): number {
    const now = this.now();
    if (this.#current !== null) this.#current.duration = now - this.#current.start;
    this.#current = null;
    return now;
  }

  recordListener(phase: string, name: string, priority: number, start: number): void {
    this.listeners.push({ phase, name, priority, start, duration: this.now() - start });
  }

  log(level: LogLevel, message: string, context: Readonly<Record<string, unknown>> = {}): void {
    this.logs.push({ level, message, context, at: this.now() });
  }
}
