import { accountTimeline } from '../../account-timeline';
import { type TimelineCollectorData } from '../../../collect/collectors/timeline-collector';
import { formatDuration } from '../../../../cli/format/format-duration';

/** The bar's width when the output is no terminal. */
export const DEFAULT_BAR_WIDTH = 40;
const NAME_MAX = 60;
const BAR_MIN = 10;

function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/**
 * Every span of a request as text: its name indented by nesting (the sub-request's token beside
 * it), start, duration and a bar of `#` on the request's time axis, as wide as the terminal
 * (`columns`) allows, else DEFAULT_BAR_WIDTH; then what no span accounts for.
 */
export function formatWaterfall(data: TimelineCollectorData, columns?: number): string[] {
  const { rows, unaccounted, total } = accountTimeline(data);
  if (rows.length === 0) return [];
  const axis = Math.max(total, ...rows.map(({ span }) => span.start + span.duration)) || 1;
  const names = rows.map(({ span, depth }) => clip(`${'  '.repeat(depth)}${span.name}${span.token === undefined ? '' : ` → ${span.token}`}`, NAME_MAX));
  const starts = rows.map(({ span }) => `+${formatDuration(span.start)}`);
  const durations = rows.map(({ span }) => formatDuration(span.duration));
  const nameWidth = Math.max(...names.map((name) => name.length));
  const startWidth = Math.max(...starts.map((text) => text.length));
  const durationWidth = Math.max(...durations.map((text) => text.length));
  // The section indents by 2; the columns are separated by 2 spaces and the bar framed by `|`.
  const fixed = 2 + nameWidth + 2 + startWidth + 2 + durationWidth + 2 + 2;
  const width = columns === undefined ? DEFAULT_BAR_WIDTH : Math.max(BAR_MIN, columns - fixed);
  const lines = rows.map(({ span }, index) => {
    const from = Math.min(width - 1, Math.max(0, Math.floor((span.start / axis) * width)));
    const length = Math.max(1, Math.min(width - from, Math.round((span.duration / axis) * width)));
    const bar = ' '.repeat(from) + '#'.repeat(length) + ' '.repeat(width - from - length);
    return `${(names[index] ?? '').padEnd(nameWidth)}  ${(starts[index] ?? '').padStart(startWidth)}  ${(durations[index] ?? '').padStart(durationWidth)}  |${bar}|`;
  });
  const share = total > 0 ? ` (${((unaccounted / total) * 100).toFixed(1)} % of ${formatDuration(total)})` : '';
  lines.push(`unaccounted: ${formatDuration(unaccounted)}${share}`);
  if (data.droppedSpans > 0) lines.push(`${data.droppedSpans} application spans were not recorded (the trace was full)`);
  return lines;
}
