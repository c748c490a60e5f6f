import { type CollectedRequest, type RequestTimings } from '../../../kernel/collected-request';
import { SPAN_CATEGORIES, type SpanCategory } from '../../../kernel/stopwatch';
import { OPEN_SPAN } from '../../../kernel/trace';
import { type ProfileCollector } from '../../collector';
import { profileTokenOf } from '../profile-token';
import { type RedactionPolicy } from '../redaction-policy';
import { redactsItself } from '../redacts-itself';
import { roundMs } from './timings';

export const TIMELINE_COLLECTOR = 'timeline';

/** One span as stored: what the Performance panel, `profiler:show` and the toolbar draw. */
export interface TimelineSpan {
  readonly name: string;
  readonly category: SpanCategory;
  /** Milliseconds since the request started. */
  readonly start: number;
  readonly duration: number;
  /** Index in `spans` of the enclosing span; -1 for the machine's states. */
  readonly parent: number;
  readonly depth: number;
  /** The profile token of an error sub-request's span. */
  readonly token?: string;
  /** A listener's priority (its span only): the Events panel lists it. */
  readonly priority?: number;
  /** Set on a span still running when the profile was collected (the current state, kernel.terminate's listeners). */
  readonly running?: true;
}

export interface TimelineCollectorData {
  /** Milliseconds from the start of the request to the collection (kernel.terminate). */
  readonly total: number;
  /** Every span; parents come before their children. */
  readonly spans: readonly TimelineSpan[];
  /** Application spans left out once the trace held its maximum. */
  readonly droppedSpans: number;
  /** Index in `spans` of the error sub-request's span: the spans before it are the request's own, those from it on the sub-request's. */
  readonly subRequest?: number;
}

/** The spans of the request itself, without its error sub-request's (see eventsOf, machineOf). */
export function ownSpans(data: TimelineCollectorData): readonly TimelineSpan[] {
  return data.subRequest === undefined ? data.spans : data.spans.slice(0, data.subRequest);
}

const CATEGORIES: ReadonlySet<string> = new Set(SPAN_CATEGORIES);

/** A span's category: one of Loupe's, or (from an application in plain JavaScript) any text, redacted. */
function categoryOf(category: SpanCategory, redaction: RedactionPolicy): SpanCategory {
  return CATEGORIES.has(category) ? category : (redaction.text(category) as SpanCategory);
}

/**
 * Appends the spans of `trace`, shifted by `offset` ms, under `parent` (-1: at the top). A span
 * still open (the current state, or one an abort abandoned) ends at `now`, within its parent.
 * Names are redacted: an application names its own spans, and may put input in them.
 */
function appendSpans(out: TimelineSpan[], trace: RequestTimings, now: number, offset: number, parent: number, redaction: RedactionPolicy): void {
  const base = out.length;
  const depthBase = parent === -1 ? 0 : (out[parent]?.depth ?? 0) + 1;
  const ends: number[] = [];
  for (const span of trace.spans) {
    const parentIndex = span.parent === -1 ? -1 : span.parent;
    const parentEnd = parentIndex === -1 ? now : (ends[parentIndex] ?? now);
    const end = span.duration === OPEN_SPAN ? Math.max(span.start, parentEnd) : span.start + span.duration;
    ends.push(end);
    const start = roundMs(span.start + offset);
    const duration = roundMs(end - span.start);
    const at = parentIndex === -1 ? parent : base + parentIndex;
    const depth = depthBase + span.depth;
    const name = redaction.text(span.name);
    // Built whole, each shape once: a listener's has its priority (most spans are listeners).
    const stored: TimelineSpan =
      span.category === 'listener'
        ? { name, category: 'listener', start, duration, parent: at, depth, priority: span.priority }
        : { name, category: categoryOf(span.category, redaction), start, duration, parent: at, depth };
    out.push(span.duration === OPEN_SPAN ? { ...stored, running: true } : stored);
  }
}

/** When the last of the trace's states ended: a finished sub-request's own total. */
function lastStateEnd(trace: RequestTimings): number {
  return trace.spans.reduce((last, span) => (span.depth === 0 ? Math.max(last, span.start + Math.max(span.duration, 0)) : last), 0);
}

/** The error sub-request's spans, nested in the main request's `error_sub_request` state. */
function appendSubRequest(out: TimelineSpan[], main: RequestTimings, sub: CollectedRequest, redaction: RedactionPolicy): void {
  let state = out.length - 1;
  while (state >= 0 && !(out[state]?.depth === 0 && out[state]?.name === 'error_sub_request')) state--;
  const end = lastStateEnd(sub.trace);
  const token = profileTokenOf(sub);
  const offset = sub.trace.origin - main.origin;
  const parent = out.length;
  // From its first state: the sub-request's exchange is prepared before the parent enters error_sub_request.
  const first = sub.trace.spans[0]?.start ?? 0;
  const base = { name: redaction.text(`sub-request ${sub.request.method} ${sub.request.path}`), category: 'sub_request', start: roundMs(offset + first), duration: roundMs(end - first), parent: state, depth: state === -1 ? 0 : 1 } as const;
  out.push(token === null ? base : { ...base, token });
  appendSpans(out, sub.trace, end, offset, parent, redaction);
}

/**
 * Every span of the request (Symfony's Stopwatch sections, Clockwork's timeline): the machine's
 * states, the listeners and the controller in them, the session's storage work, the
 * application's own spans, and the error sub-request's spans nested where it ran. The Events
 * and State machine panels read their phases, listeners and states from it (eventsOf,
 * machineOf): a profile stores them once. Its only strings that can hold input are the spans'
 * names (and a category that is not one of Loupe's), redacted here; tokens are its own: no last pass walks the spans.
 */
export const timelineCollector: ProfileCollector<TimelineCollectorData> = redactsItself({
  name: TIMELINE_COLLECTOR,
  collect: (exchange, redaction) => {
    const { trace } = exchange;
    // A sub-request is collected with its parent, once it has long finished.
    const now = exchange.parent === null ? trace.now() : lastStateEnd(trace);
    const spans: TimelineSpan[] = [];
    appendSpans(spans, trace, now, 0, -1, redaction);
    const subRequest = spans.length;
    const droppedSpans = trace.droppedSpans + (exchange.subRequest?.trace.droppedSpans ?? 0);
    if (exchange.subRequest === null || exchange.subRequest.trace.spans.length === 0) return { total: roundMs(now), spans, droppedSpans };
    appendSubRequest(spans, trace, exchange.subRequest, redaction);
    return { total: roundMs(now), spans, droppedSpans, subRequest };
  },
});
