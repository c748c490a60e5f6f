/**
 * A plain-text table: a header row, a rule of dashes, then the rows, columns separated by two
 * spaces. The last column is not padded, so long URLs do not leave trailing blanks.
 */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
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
