import { type SpanCategory } from '../../../kernel/stopwatch';
import { type TimelineCollectorData, type TimelineSpan } from './timeline-data';

/**
 * The spans as stored: one array per field, the span at index i made of each array's i-th
 * value. Times are integer microseconds, which JSON writes and reads much faster than the
 * milliseconds with decimals the readers get; a span's depth is its parent's plus one.
 */
export interface StoredSpans {
  readonly name: string[];
  readonly category: string[];
  /** Microseconds since the request started. */
  readonly startUs: number[];
  readonly durationUs: number[];
  /** Index of the enclosing span; -1 for the machine's states. */
  readonly parent: number[];
  /** A listener's priority; 0 for any other span. */
  readonly priority: number[];
}

/** The timeline collector's entry as stored since profile version 2; parseProfile reads it as TimelineCollectorData. */
export interface StoredTimeline {
  /** Microseconds from the start of the request to the collection (kernel.terminate). */
  readonly totalUs: number;
  readonly spans: StoredSpans;
  /** Indices of the spans still running when the profile was collected. */
  readonly running: number[];
  /** Application spans left out once the trace held its maximum. */
  readonly droppedSpans: number;
  /** Index of the error sub-request's span, when there is one. */
  readonly subRequest?: number;
  /** The profile token of the error sub-request, when it has a profile. */
  readonly subRequestToken?: string;
}

const COLUMNS = ['name', 'category', 'startUs', 'durationUs', 'parent', 'priority'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isIndex = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= -1;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isString = (value: unknown): value is string => typeof value === 'string';

/** What each column must hold. */
const CHECKS: Readonly<Record<(typeof COLUMNS)[number], (value: unknown) => boolean>> = {
  name: isString,
  category: isString,
  startUs: isNumber,
  durationUs: isNumber,
  parent: isIndex,
  priority: isNumber,
};

function isStoredTimeline(entry: Record<string, unknown>): entry is Record<string, unknown> & StoredTimeline {
  const { spans, running, subRequest, subRequestToken } = entry;
  if (!isNumber(entry['totalUs']) || !isNumber(entry['droppedSpans']) || !isRecord(spans)) return false;
  const length = Array.isArray(spans['name']) ? spans['name'].length : -1;
  const columns = COLUMNS.every((column) => {
    const values = spans[column];
    return Array.isArray(values) && values.length === length && values.every(CHECKS[column]);
  });
  return (
    columns &&
    Array.isArray(running) &&
    running.every((index) => Number.isInteger(index) && index >= 0 && index < length) &&
    (subRequest === undefined || (Number.isInteger(subRequest) && (subRequest as number) >= 0)) &&
    (subRequestToken === undefined || isString(subRequestToken))
  );
}

/**
 * The timeline entry of a version 2 profile as its readers take it (TimelineCollectorData, as
 * version 1 stored it: a span object each, times in milliseconds, with its depth), or what is
 * wrong with it. A parent that does not come before its span gives it depth 0, as the
 * waterfall draws it at the top.
 */
export function readStoredTimeline(entry: Record<string, unknown>): TimelineCollectorData | string {
  if (!isStoredTimeline(entry)) {
    return 'the entry of the collector "timeline" is not a timeline (totalUs, droppedSpans, running and spans of name, category, startUs, durationUs, parent and priority columns of one length)';
  }
  const { name, category, startUs, durationUs, parent, priority } = entry.spans;
  const running = new Set(entry.running);
  const depths: number[] = [];
  const spans: TimelineSpan[] = [];
  for (let index = 0; index < name.length; index++) {
    const up = parent[index] ?? -1;
    const depth = up >= 0 && up < index ? (depths[up] ?? 0) + 1 : 0;
    depths.push(depth);
    const kind = category[index] as SpanCategory;
    let span: TimelineSpan = { name: name[index] ?? '', category: kind, start: (startUs[index] ?? 0) / 1000, duration: (durationUs[index] ?? 0) / 1000, parent: up, depth };
    if (kind === 'listener') span = { ...span, priority: priority[index] ?? 0 };
    if (index === entry.subRequest && entry.subRequestToken !== undefined) span = { ...span, token: entry.subRequestToken };
    if (running.has(index)) span = { ...span, running: true };
    spans.push(span);
  }
  const data = { total: entry.totalUs / 1000, spans, droppedSpans: entry.droppedSpans };
  return entry.subRequest === undefined ? data : { ...data, subRequest: entry.subRequest };
}
