import { type LiveSummary } from '../../live/live-summary';
import { escapeControl } from '../../../../log/escape-control';
import { formatDuration } from '../../../../cli/format/format-duration';

/** ISO 8601, or the number itself when no date has it. */
function isoTime(time: number): string {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? String(time) : date.toISOString();
}

/**
 * One `profiler:tail` line: time, method, status, duration, token, then the path (last, so that
 * the columns before it line up), and what kind of request it was. Every stored value escaped.
 */
export function formatLiveLine(summary: LiveSummary): string {
  const status = summary.aborted ? 'abrt' : String(summary.status);
  const notes = [summary.sub ? `sub-request of ${escapeControl(summary.parent ?? '?')}` : '', summary.aborted ? 'client went away' : ''].filter((note) => note !== '');
  const columns = [
    isoTime(summary.time),
    escapeControl(summary.method).padEnd(7),
    status.padStart(4),
    formatDuration(summary.durationMs).padStart(9),
    escapeControl(summary.token),
    escapeControl(summary.path),
  ];
  return `${columns.join('  ')}${notes.length === 0 ? '' : `  (${notes.join(', ')})`}\n`;
}
