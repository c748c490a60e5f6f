import { type ProfileSummary } from '../../../profile';
import { type FoundRow } from '../../../storage/profile-storage';
import { escapeControl } from '../../../../log/escape-control';
import { formatDuration } from '../../../../cli/format/format-duration';
import { formatTable } from '../../../../cli/format/format-table';

/** ISO 8601, or the number itself when no date has it (a corrupted row). */
function isoTime(time: number): string {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? String(time) : date.toISOString();
}

/** `12`, `12 N+1` when a query ran in a loop, `-` in rows stored before Loupe counted queries. */
function queries(summary: ProfileSummary): string {
  if (summary.queries === undefined) return '-';
  return (summary.nPlusOne ?? 0) > 0 ? `${summary.queries} N+1` : String(summary.queries);
}

/**
 * The `profiler:list` table: one row per profile, in the order given (newest first). A row that
 * cannot be read keeps its place as `(unreadable row <token>: <why>)`, and the listing goes on.
 */
export function formatSummaryTable(rows: readonly FoundRow[]): string {
  const table = formatTable(
    ['Token', 'Status', 'Method', 'URL', 'IP', 'Time', 'Duration', 'Queries', 'Parent'],
    rows.flatMap((row) => {
      if (!row.ok) return [];
      const { summary } = row;
      return [[summary.token, String(summary.statusCode), summary.method, summary.url, summary.ip, isoTime(summary.time), summary.duration === undefined ? '-' : formatDuration(summary.duration), queries(summary), summary.parent ?? '-']];
    }),
  );
  const [header = '', rule = '', ...lines] = table.trimEnd().split('\n');
  const out = [header, rule];
  for (const row of rows) out.push(row.ok ? (lines.shift() ?? '') : `(unreadable row ${escapeControl(row.token)}: ${row.error})`);
  return `${out.join('\n')}\n`;
}
