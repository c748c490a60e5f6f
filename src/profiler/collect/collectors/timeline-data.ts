import { type SpanCategory } from '../../../kernel/stopwatch';

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

/** The timeline as its readers take it: as profile version 1 stored it, and as parseProfile reads StoredTimeline. */
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
