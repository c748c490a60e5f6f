import { type TimelineCollectorData, type TimelineSpan } from '../collect/collectors/timeline-collector';

/** A span in drawing order, with its self time: its duration not covered by any of its children. */
export interface TimelineRow {
  readonly span: TimelineSpan;
  readonly depth: number;
  readonly self: number;
}

export interface AccountedTimeline {
  readonly total: number;
  /** Depth-first, children by start: a waterfall read top to bottom. */
  readonly rows: readonly TimelineRow[];
  /**
   * What no span explains: time before, between or after the machine's states, and the self time
   * of the states and the sub-request (the machine's own work between listeners). Listener,
   * controller and application self time is theirs, so it is accounted for.
   */
  readonly unaccounted: number;
}

/** Milliseconds of [from, to] covered by `intervals`. */
function covered(intervals: readonly (readonly [number, number])[], from: number, to: number): number {
  const clipped = intervals.map(([start, end]) => [Math.max(start, from), Math.min(end, to)] as const).filter(([start, end]) => end > start);
  clipped.sort((a, b) => a[0] - b[0]);
  let sum = 0;
  let reach = from;
  for (const [start, end] of clipped) {
    if (end <= reach) continue;
    sum += end - Math.max(start, reach);
    reach = end;
  }
  return sum;
}

const interval = (span: TimelineSpan): readonly [number, number] => [span.start, span.start + span.duration];

/**
 * The stored spans as a tree with each one's self time, and how much of the request's total no
 * span accounts for. A parent index that does not point before its child makes the span a root,
 * so a damaged profile still draws.
 */
export function accountTimeline(data: TimelineCollectorData): AccountedTimeline {
  const { spans, total } = data;
  const children: number[][] = spans.map(() => []);
  const roots: number[] = [];
  spans.forEach((span, index) => {
    const list = span.parent >= 0 && span.parent < index ? children[span.parent] : roots;
    list?.push(index);
  });
  const byStart = (a: number, b: number): number => (spans[a]?.start ?? 0) - (spans[b]?.start ?? 0);
  const intervals = (indices: readonly number[]): (readonly [number, number])[] => indices.flatMap((index) => (spans[index] === undefined ? [] : [interval(spans[index])]));
  const rows: TimelineRow[] = [];
  let unaccounted = Math.max(0, total - covered(intervals(roots), 0, total));
  const visit = (index: number, depth: number): void => {
    const span = spans[index];
    if (span === undefined) return;
    const kids = (children[index] ?? []).sort(byStart);
    const self = Math.max(0, span.duration - covered(intervals(kids), span.start, span.start + span.duration));
    if (span.category === 'phase' || span.category === 'sub_request') unaccounted += self;
    rows.push({ span, depth, self });
    for (const kid of kids) visit(kid, depth + 1);
  };
  for (const root of roots.sort(byStart)) visit(root, 0);
  return { total, rows, unaccounted };
}
