import { performance } from 'node:perf_hooks';
import { OPEN_SPAN, type SpanCategory, type SpanRecorder, type Stopwatch } from './stopwatch';
import { spanOn, startOn, stopOn } from './stopwatch-spans';

/** The severity of a request log entry, PSR-3's names from least to most severe. */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical';

/** One state the request machine went through, with its timing. */
export interface PhaseRecord {
  /** The state's name, e.g. `kernel.request`. */
  readonly name: string;
  /** Milliseconds since the request started. */
  readonly start: number;
  /** Milliseconds in the state; 0 for the state still running. */
  duration: number;
}

/** One listener that ran to the end, with its phase and timing. */
export interface ListenerRecord {
  /** The phase it ran in, e.g. `kernel.response`. */
  readonly phase: string;
  /** The listener's name (Listener.name). */
  readonly name: string;
  /** Its priority in that phase; higher ran first. */
  readonly priority: number;
  /** Milliseconds since the request started. */
  readonly start: number;
  /** Milliseconds from its call until it (or the promise it returned) settled. */
  readonly duration: number;
}

/** One timed part of the request: a state of the machine, a listener, the controller, an application's span… */
export interface SpanRecord {
  /** The state's, listener's or controller's name, or the name given to `stopwatch.start`/`span`. */
  readonly name: string;
  /** What the span measures; the timeline groups and colours by it. */
  readonly category: SpanCategory;
  /** Milliseconds since the request started. */
  readonly start: number;
  /** Milliseconds; `OPEN_SPAN` while the span runs (or was abandoned by an abort). */
  duration: number;
  /** Index in `spans` of the span this one runs in; -1 for the machine's states. */
  readonly parent: number;
  /** Nesting level: 0 for the machine's states, 1 for listeners and the controller, deeper for spans inside them. */
  readonly depth: number;
  /** A listener's priority; 0 for any other span. */
  readonly priority: number;
}

/** One entry of a request's log (the profiler's Logs panel). */
export interface LogRecord {
  /** Its severity. */
  readonly level: LogLevel;
  /** The message as logged. */
  readonly message: string;
  /** Structured data logged with it; `{}` when none was given. */
  readonly context: Readonly<Record<string, unknown>>;
  /** Milliseconds since the request started. */
  readonly at: number;
}

export { OPEN_SPAN };
/** Spans beyond the kernel's own: a loop of application spans must not grow a profile without end. */
export const MAX_SPANS = 1000;
const NOT_RECORDED = -1;

/**
 * What the request machine records while one request runs: every state it entered, each listener
 * and the controller inside them (timed from call to settle), the spans of features and of the
 * application, and log entries. Plain records pushed into one array; the profiler stores them.
 * With `detailed` off (no debug, no Server-Timing: nothing reads more) only the states are
 * recorded: the stopwatch records nothing, and neither does `log` (the Logs panel and the debug
 * error page read it; the terminal log is the logger's).
 */
export class Trace implements Stopwatch, SpanRecorder {
  /** Wall-clock start, epoch milliseconds. */
  readonly startedAt = Date.now();
  /** `performance.now()` when the request started: a sub-request's trace is placed by it. */
  readonly origin = performance.now();
  readonly spans: SpanRecord[] = [];
  readonly logs: LogRecord[] = [];
  readonly detailed: boolean;
  /** Application spans not recorded once MAX_SPANS was reached. */
  droppedSpans = 0;
  #phase = NOT_RECORDED;
  /** The listener or controller running now, inside the current phase. */
  #unit = NOT_RECORDED;
  /** Spans opened with start(), or whose span() function runs, on this (the request's) stopwatch. */
  readonly #stack: number[] = [];

  constructor(detailed = true) {
    this.detailed = detailed;
  }

  /** Milliseconds since the request started. */
  now(): number {
    return performance.now() - this.origin;
  }

  /** The machine's states with their timing; the current one has a duration of 0 until it ends. */
  get states(): PhaseRecord[] {
    return this.spans.filter((span) => span.depth === 0).map(({ name, start, duration }) => ({ name, start, duration: Math.max(duration, 0) }));
  }

  /** When the machine entered its current (or last) state, in milliseconds since the request started; `null` before the first. */
  get lastStateStart(): number | null {
    for (let index = this.spans.length - 1; index >= 0; index--) {
      const span = this.spans[index];
      if (span !== undefined && span.depth === 0) return span.start;
    }
    return null;
  }

  /** The listeners that ran to the end, in order, with their phase. */
  get listeners(): ListenerRecord[] {
    return this.spans
      .filter((span) => span.category === 'listener' && span.duration !== OPEN_SPAN)
      .map(({ parent, name, priority, start, duration }) => ({ phase: this.spans[parent]?.name ?? '', name, priority, start, duration }));
  }

  /** Closes the current state and opens `name`. */
  enter(name: string): void {
    const now = this.now();
    this.#closePhase(now);
    this.#phase = this.spans.push({ name, category: 'phase', start: now, duration: OPEN_SPAN, parent: -1, depth: 0, priority: 0 }) - 1;
  }

  /** Closes the last state; the request is over. */
  finish(): number {
    const now = this.now();
    this.#closePhase(now);
    this.#phase = NOT_RECORDED;
    return now;
  }

  /** Opens the span of a listener of the current phase; `end` closes it once it settled. Nothing without `detailed`. */
  beginListener(name: string, priority: number): number {
    if (!this.detailed) return NOT_RECORDED;
    return (this.#unit = this.spans.push({ name, category: 'listener', start: this.now(), duration: OPEN_SPAN, parent: this.#phase, depth: 1, priority }) - 1);
  }

  /** Opens the span of the controller, in the `controller` state; nothing without `detailed`. */
  beginController(name: string): number {
    return (this.#unit = this.open(name, 'controller', this.#phase));
  }

  /** Closes a span opened here; a span not recorded, or already closed, is left as it is. */
  end(index: number): void {
    // Not recorded (no detail): nothing to close, and no array read at a negative index, which
    // V8 answers as a named-property lookup on every listener of every request.
    if (index < 0) return;
    const span = this.spans[index];
    if (span !== undefined && span.duration === OPEN_SPAN) span.duration = this.now() - span.start;
    if (index === this.#unit) this.#unit = NOT_RECORDED;
  }

  /** Opens a span in `parent` (an index of `spans`); answers its index, or -1 when it is not recorded. */
  open(name: string, category: SpanCategory, parent: number): number {
    if (!this.detailed) return NOT_RECORDED;
    if (this.spans.length >= MAX_SPANS) {
      this.droppedSpans += 1;
      return NOT_RECORDED;
    }
    const depth = (this.spans[parent]?.depth ?? -1) + 1;
    return this.spans.push({ name, category, start: this.now(), duration: OPEN_SPAN, parent, depth, priority: 0 }) - 1;
  }

  /**
   * Opens a span where the request's code runs now (the open span, listener or controller), for
   * work that ends outside the stopwatch's reach (a captured query); `end` closes it.
   */
  openHere(name: string, category: SpanCategory): number {
    return this.open(name, category, this.#parent());
  }

  start(name: string, category: SpanCategory = 'app'): void {
    startOn(this, this.#stack, this.#parent(), name, category);
  }

  stop(name: string): void {
    stopOn(this, this.#stack, name);
  }

  span<T>(name: string, fn: (stopwatch: Stopwatch) => T, category: SpanCategory = 'app'): T {
    return spanOn(this, this.#stack, this.#parent(), name, category, fn, this);
  }

  /** Adds an entry to the request's log; nothing without `detailed`. */
  log(level: LogLevel, message: string, context: Readonly<Record<string, unknown>> = {}): void {
    if (!this.detailed) return;
    this.logs.push({ level, message, context, at: this.now() });
  }

  /** Where a span of the request's stopwatch goes: the innermost one still open on it, else what the kernel runs. */
  #parent(): number {
    return this.#stack.at(-1) ?? (this.#unit === NOT_RECORDED ? this.#phase : this.#unit);
  }

  #closePhase(now: number): void {
    const span = this.#phase < 0 ? undefined : this.spans[this.#phase];
    if (span !== undefined) span.duration = now - span.start;
    this.#unit = NOT_RECORDED;
  }
}
