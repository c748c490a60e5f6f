import { attributeKey } from '../../kernel/attributes';
import { currentRequest, type CurrentRequest } from '../../kernel/request-context';
import { type SpanCategory } from '../../kernel/stopwatch';
import { roundMs } from '../collect/collectors/timings';
import { type CaptureLibrary } from '../profiler-config';
import { type CapturedCall } from './app-io-entries';
import { captureOrigin, STACK_DEPTH, StackReach, type CallOrigin } from './capture-origin';

/**
 * The libraries whose calls are captured into a request (PROFILER_CAPTURE), set by the profiler
 * when the request starts: the channels are the process's, and each profiler captures into its
 * own requests what its own configuration asks.
 */
export const CAPTURED_IO = attributeKey<ReadonlySet<CaptureLibrary>>('profiler.captured_io');

/** How deep each library's calls find the application's frame (see StackReach). */
const reaches = new Map<CaptureLibrary, StackReach>();

function reachOf(capture: CaptureLibrary): StackReach {
  let reach = reaches.get(capture);
  if (reach === undefined) {
    reach = new StackReach();
    reaches.set(capture, reach);
  }
  return reach;
}

/** A captured call still running: its entry in the request's records and the end of its span in the timeline. */
export interface OpenCall<TEntry extends CapturedCall> {
  readonly entry: TEntry;
  readonly request: CurrentRequest;
  readonly endSpan: () => void;
}

/**
 * Starts recording a call into the request whose code makes it, or answers `null` outside any
 * request (start-up, a timer: such a call belongs to no profile) and where the request's
 * profiler does not capture `capture`. Runs synchronously in the caller's context, where the
 * request's store and the application's stack still are; `origin` is how deep to look in that
 * stack, or the origin already taken where the call was made (a query built before it is sent).
 */
export function openCall<TEntry extends CapturedCall>(
  capture: CaptureLibrary,
  kind: string,
  category: SpanCategory,
  spanName: string,
  build: (start: number, origin: CallOrigin) => TEntry,
  origin: number | CallOrigin = STACK_DEPTH,
): OpenCall<TEntry> | null {
  const request = currentRequest();
  if (request === undefined || request.attributes.get(CAPTURED_IO)?.has(capture) !== true) return null;
  // A depth: the origin is read from the stack here. An origin: the call's start took it where the application was.
  const entry = build(roundMs(request.elapsed()), typeof origin === 'number' ? captureOrigin(origin, reachOf(capture)) : origin);
  if (!request.record(kind, entry)) return null;
  return { entry, request, endSpan: request.beginSpan(spanName, category) };
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
  const { entry, request } = call;
  if (entry.duration !== null) return;
  entry.duration = roundMs(request.elapsed() - entry.start);
  if (error !== undefined) entry.error = messageOf(error);
  call.endSpan();
}
