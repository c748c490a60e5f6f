import { type ProfileSummary } from '../../profiler/profile';
import { formatTable } from './format-table';

/** The `profiler:list` table: one row per profile, in the order given (newest first). */
export function formatSummaryTable(rows: readonly ProfileSummary[]): string {
  return formatTable(
    ['Token', 'Status', 'Method', 'URL', 'IP', 'Time', 'Parent'],
    rows.map((row) => [
      row.token,
      String(row.statusCode),
      row.method,
      row.url,
      row.ip,
      new Date(row.time).toISOString(),
      row.parent ?? '-',
    ]),
  );
}
