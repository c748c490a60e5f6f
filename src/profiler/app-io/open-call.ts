import { Exchange } from '../../kernel/exchange';
import { requestContext } from '../../kernel/request-context';
import { type SpanCategory } from '../../kernel/stopwatch';
import { type Trace } from '../../kernel/trace';
import { roundMs } from '../collect/collectors/timings';
import { type CaptureKind } from '../profiler-config';
import { type CapturedCall } from './app-io-entries';
import { captureOrigin, STACK_DEPTH, type CallOrigin } from './capture-origin';

/** A captured call still running: its entry in the request's records and its span in the timeline. */
export interface OpenCall<TEntry extends CapturedCall> {
  readonly entry: TEntry;
  readonly trace: Trace;
  readonly span: number;
}

/**
 * Starts recording a call into the request whose code makes it, or answers `null` outside any
 * request (start-up, a timer: such a call belongs to no profile) and where the request's
 * application does not capture `capture`. Runs synchronously in the
 * caller's context, where the request's store and the application's stack still are.
 */
export function openCall<TEntry extends CapturedCall>(
  capture: CaptureKind,
  kind: string,
  category: SpanCategory,
  spanName: string,
  build: (start: number, origin: CallOrigin | null) => TEntry,
  stackDepth = STACK_DEPTH,
): OpenCall<TEntry> | null {
  const exchange = requestContext.getStore();
  // The channels are the process's; each application captures what its own configuration asks.
  if (!(exchange instanceof Exchange) || !exchange.captures(capture)) return null;
  const { trace } = exchange;
  const entry = build(roundMs(trace.now()), captureOrigin(stackDepth));
  if (!exchange.record(kind, entry)) return null;
  return { entry, trace, span: trace.openHere(spanName, category) };
}

/** The message a failed call records. */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return String(error);
}

/**
 * Ends a call: its duration, its error if it failed. Once only; a call that ends after its
 * request's profile was collected changes an entry nobody reads any more.
 */
export function closeCall(call: OpenCall<CapturedCall>, error?: unknown): void {
  const { entry, trace } = call;
  if (entry.duration !== null) return;
  entry.duration = roundMs(trace.now() - entry.start);
  if (error !== undefined) entry.error = messageOf(error);
  trace.end(call.span);
}
