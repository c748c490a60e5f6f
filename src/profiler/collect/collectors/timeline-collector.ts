import { type CollectedRequest, type RequestTimings } from '../../../kernel/collected-request';
import { SPAN_CATEGORIES, type SpanCategory } from '../../../kernel/stopwatch';
import { OPEN_SPAN } from '../../../kernel/trace';
import { type ProfileCollector } from '../../collector';
import { profileTokenOf } from '../profile-token';
import { type RedactionPolicy } from '../redaction-policy';
import { redactsItself } from '../redacts-itself';
import { type StoredSpans, type StoredTimeline } from './stored-timeline';

export const TIMELINE_COLLECTOR = 'timeline';

/** One span as its readers take it (see readStoredTimeline): what the Performance panel, `profiler:show` and the toolbar draw. */
export { ownSpans, type TimelineCollectorData, type TimelineSpan } from './timeline-data';

const CATEGORIES: ReadonlySet<string> = new Set(SPAN_CATEGORIES);

/** A span's category: one of Loupe's, or (from an application in plain JavaScript) any text, redacted. */
function categoryOf(category: SpanCategory, redaction: RedactionPolicy): string {
  return CATEGORIES.has(category) ? category : redaction.text(category);
}

/** Milliseconds as the integer microseconds stored (see StoredSpans). */
const us = (ms: number): number => Math.round(ms * 1000);

/** The columns being filled, and the spans still running among them. */
interface Columns {
  readonly spans: StoredSpans;
  readonly running: number[];
}

/** Appends one span to the columns. */
function push({ spans }: Columns, name: string, category: string, start: number, duration: number, parent: number, priority: number): void {
  spans.name.push(name);
  spans.category.push(category);
  spans.startUs.push(us(start));
  spans.durationUs.push(us(duration));
  spans.parent.push(parent);
  spans.priority.push(priority);
}

/**
 * Appends the spans of `trace`, shifted by `offset` ms, under `parent` (-1: at the top). A span
 * still open (the current state, or one an abort abandoned) ends at `now`, within its parent.
 * Names are redacted: an application names its own spans, and may put input in them.
 */
function appendSpans(out: Columns, trace: RequestTimings, now: number, offset: number, parent: number, redaction: RedactionPolicy): void {
  const base = out.spans.name.length;
  const ends: number[] = [];
  for (const span of trace.spans) {
    const parentEnd = span.parent === -1 ? now : (ends[span.parent] ?? now);
    const open = span.duration === OPEN_SPAN;
    const end = open ? Math.max(span.start, parentEnd) : span.start + span.duration;
    ends.push(end);
    if (open) out.running.push(out.spans.name.length);
    const category = span.category === 'listener' ? 'listener' : categoryOf(span.category, redaction);
    push(out, redaction.text(span.name), category, span.start + offset, end - span.start, span.parent === -1 ? parent : base + span.parent, span.priority);
  }
}

/** When the last of the trace's states ended: a finished sub-request's own total. */
function lastStateEnd(trace: RequestTimings): number {
  return trace.spans.reduce((last, span) => (span.depth === 0 ? Math.max(last, span.start + Math.max(span.duration, 0)) : last), 0);
}

/** The error sub-request's spans, nested in the main request's `error_sub_request` state. */
function appendSubRequest(out: Columns, main: RequestTimings, sub: CollectedRequest, redaction: RedactionPolicy): void {
  const { name, parent: parents } = out.spans;
  let state = name.length - 1;
  while (state >= 0 && !(parents[state] === -1 && name[state] === 'error_sub_request')) state--;
  const end = lastStateEnd(sub.trace);
  const offset = sub.trace.origin - main.origin;
  const parent = name.length;
  // From its first state: the sub-request's exchange is prepared before the parent enters error_sub_request.
  const first = sub.trace.spans[0]?.start ?? 0;
  push(out, redaction.text(`sub-request ${sub.request.method} ${sub.request.path}`), 'sub_request', offset + first, end - first, state, 0);
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
export const timelineCollector: ProfileCollector<StoredTimeline> = redactsItself({
  name: TIMELINE_COLLECTOR,
  collect: (exchange, redaction) => {
    const { trace } = exchange;
    // A sub-request is collected with its parent, once it has long finished.
    const now = exchange.parent === null ? trace.now() : lastStateEnd(trace);
    const columns: Columns = { spans: { name: [], category: [], startUs: [], durationUs: [], parent: [], priority: [] }, running: [] };
    appendSpans(columns, trace, now, 0, -1, redaction);
    const subRequest = columns.spans.name.length;
    const droppedSpans = trace.droppedSpans + (exchange.subRequest?.trace.droppedSpans ?? 0);
    const stored = { totalUs: us(now), spans: columns.spans, running: columns.running, droppedSpans };
    if (exchange.subRequest === null || exchange.subRequest.trace.spans.length === 0) return stored;
    appendSubRequest(columns, trace, exchange.subRequest, redaction);
    const token = profileTokenOf(exchange.subRequest);
    return token === null ? Object.assign(stored, { subRequest }) : Object.assign(stored, { subRequest, subRequestToken: token });
  },
});
