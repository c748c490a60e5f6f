import { AsyncLocalStorage } from 'node:async_hooks';
import { type LoupeRequest } from '../http/request';
import { type Attributes } from './attributes';
import { type SpanCategory, type Stopwatch } from './stopwatch';
import { type LogLevel } from './trace';

/**
 * The request being handled, wherever its code runs: a controller's helpers three calls deep,
 * a repository, an HTTP client wrapper. What the controller's arguments hold, without passing
 * them down.
 */
export interface CurrentRequest {
  /** The main request being handled, also while an error sub-request renders its error. */
  readonly request: LoupeRequest;
  /** State listeners and controllers share, by typed key. */
  readonly attributes: Attributes;
  /** Times parts of the work into the request's timeline (the Performance panel). */
  readonly stopwatch: Stopwatch;
  /** Adds an entry to the request's log (the Logs panel); kept only with a detailed trace (`stopwatch.detailed`). */
  log(level: LogLevel, message: string, context?: Readonly<Record<string, unknown>>): void;
  /**
   * Publishes `entry` into the request's records of `kind`, which a collector reads back with
   * `request.records(kind)` when the profile is collected: how a library puts its own calls in
   * a panel. Bounded per kind (PROFILER_MAX_ENTRIES); false when the entry was only counted.
   * The entry is read at collection, so one still running may be completed in place.
   */
  record(kind: string, entry: object): boolean;
  /** Milliseconds since the request started: when a recorded call began, on the timeline's clock. */
  elapsed(): number;
  /**
   * Opens a span where the request's code runs now (the listener, the controller, an open span)
   * for work that ends in a callback, such as a query a library records; calling the answer ends
   * it (once). Nothing is recorded without a detailed trace (`stopwatch.detailed`).
   */
  beginSpan(name: string, category?: SpanCategory): () => void;
}

/**
 * Carries the request through every `await` of its listeners and controller, and into what they
 * call (diagnostics-channel subscribers run in the publisher's context, so a captured query knows
 * its request). On Node 20 it rests on async hooks, which cost every promise something: the
 * kernel runs a request in it only where the configuration asks (REQUEST_CONTEXT, on with debug).
 */
export const requestContext = new AsyncLocalStorage<CurrentRequest>();

/**
 * The request whose code is running, or `undefined` outside any request (start-up, a timer set
 * before one, or with REQUEST_CONTEXT off).
 *
 * ```ts
 * import { currentRequest } from 'loupe-kernel';
 *
 * export async function findUser(id: string): Promise<User> {
 *   currentRequest()?.log('debug', 'Loading a user.', { id });
 *   return currentRequest()?.stopwatch.span('users.find', () => db.find(id)) ?? db.find(id);
 * }
 * ```
 */
export function currentRequest(): CurrentRequest | undefined {
  return requestContext.getStore();
}
