import { escapeControl } from '../../log/escape-control';

/**
 * A plain-text table: a header row, a rule of dashes, then the rows, columns separated by two
 * spaces. The last column is not padded, so long URLs do not leave trailing blanks. Control
 * characters in a cell are escaped: a value can neither drive the terminal nor break its row.
 */
export function formatTable(headers: readonly string[], cellRows: readonly (readonly string[])[]): string {
  const rows = cellRows.map((row) => row.map(escapeControl));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    headers
      .map((_, column) => {
        const cell = cells[column] ?? '';
        return column === headers.length - 1 ? cell : cell.padEnd(widths[column] ?? 0);
      })
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n') + '\n';
}
