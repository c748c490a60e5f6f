/**
 * What a span measures; the timeline colours and groups spans by it. The kernel records
 * `phase`, `listener`, `controller` and `sub_request`; features record `session` and `redis`
 * (Loupe's own commands); the application's captured I/O is `db` (SQL), `http` (outgoing calls)
 * and `cache` (its Redis commands); an application's spans are `app` unless it names another category.
 */
export const SPAN_CATEGORIES = ['phase', 'listener', 'controller', 'sub_request', 'session', 'redis', 'db', 'http', 'cache', 'app'] as const;

/** One of SPAN_CATEGORIES. */
export type SpanCategory = (typeof SPAN_CATEGORIES)[number];

/**
 * Times parts of a request into its timeline, as Symfony's Stopwatch: controllers get one as
 * `stopwatch`, listeners as `event.stopwatch`. A span nests in the listener or controller that
 * runs it, and in the spans still open on the same stopwatch.
 *
 * ```ts
 * stopwatch.start('render'); …; stopwatch.stop('render');
 * const rows = await stopwatch.span('db.query', (inner) => db.query(sql)); // timed until it settles
 * ```
 *
 * Without debug (and without SERVER_TIMING) nothing is recorded: `span` only calls its function.
 */
export interface Stopwatch {
  /** Opens the span `name`; it runs until `stop(name)`. */
  start(name: string, category?: SpanCategory): void;
  /** Closes the latest open span named `name`; throws when none is open. */
  stop(name: string): void;
  /**
   * Runs `fn` inside the span `name` and answers what it answers. A promise is timed until it
   * settles. `fn` gets a stopwatch of its own: spans started on it after an `await` still nest
   * inside this one (Loupe keeps no async context on the hot path).
   */
  span<T>(name: string, fn: (stopwatch: Stopwatch) => T, category?: SpanCategory): T;
}

/** A span's duration while it runs (or after an abort abandoned it). */
export const OPEN_SPAN = -1;

/** What the stopwatch needs of the trace it records into (Trace): spans to open, end and find. */
export interface SpanRecorder {
  /** False when nothing but the machine's states and listeners is recorded. */
  readonly detailed: boolean;
  readonly droppedSpans: number;
  readonly spans: readonly { readonly name: string; readonly duration: number; readonly depth: number }[];
  /** Opens a span in `parent`; answers its index, or -1 when it is not recorded. */
  open(name: string, category: SpanCategory, parent: number): number;
  end(index: number): void;
}
