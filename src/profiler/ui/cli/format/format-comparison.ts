import { isUnchanged, type ComparedSide, type IoDiff, type ProfileComparison, type TimingDiff } from '../../compare-profiles';
import { escapeControl } from '../../../../log/escape-control';
import { type QueryShapeChanges } from '../../../app-io/query-shape-changes';
import { formatDuration } from '../../../../cli/format/format-duration';
import { formatTable } from '../../../../cli/format/format-table';

function ms(value: number | null): string {
  return value === null ? '-' : formatDuration(value);
}

/** `+1.20 ms (+15.0 %)`: what B took more (or less) than A; `±0.00 ms` below what can be shown. */
export function formatDiff(row: TimingDiff): string {
  if (row.diff === null) return row.a === null ? 'only in B' : 'only in A';
  if (isUnchanged(row)) return `±${formatDuration(0)}`;
  const sign = row.diff > 0 ? '+' : row.diff < 0 ? '-' : '±';
  const percent = row.percent === null ? '' : ` (${row.percent > 0 ? '+' : ''}${row.percent} %)`;
  return `${sign}${formatDuration(Math.abs(row.diff))}${percent}`;
}

/** `+3 (+50 %)`: how many more (or fewer) B ran than A. */
export function formatCountDiff(row: TimingDiff): string {
  if (row.diff === null) return row.a === null ? 'only in B' : 'only in A';
  const sign = row.diff > 0 ? '+' : row.diff < 0 ? '-' : '±';
  const percent = row.percent === null ? '' : ` (${row.percent > 0 ? '+' : ''}${row.percent} %)`;
  return `${sign}${Math.abs(row.diff)}${percent}`;
}

function ioTable(rows: readonly IoDiff[]): string {
  const value = (row: IoDiff, side: number | null): string => (row.unit === 'ms' ? ms(side) : side === null ? '-' : String(side));
  return formatTable(['Name', 'A', 'B', 'B - A'], rows.map((row) => [row.name, value(row, row.a), value(row, row.b), row.unit === 'ms' ? formatDiff(row) : formatCountDiff(row)]));
}

function status(side: ComparedSide): string {
  return side.statusCode === 0 ? 'aborted' : String(side.statusCode);
}

function timingTable(rows: readonly TimingDiff[]): string {
  return formatTable(['Name', 'A', 'B', 'B - A'], rows.map((row) => [row.name, ms(row.a), ms(row.b), formatDiff(row)]));
}

/** `Query shapes added (1)` and the shapes, one a line (a multi-line statement on one), every stored value escaped. */
function shapeList(name: 'added' | 'removed', shapes: readonly string[]): string[] {
  return [`Query shapes ${name} (${shapes.length})`, ...shapes.map((shape) => `  ${escapeControl(shape.replace(/\s*\n\s*/g, ' '))}`), ''];
}

function shapeLines(changes: QueryShapeChanges | null): string[] {
  if (changes === null) return ['Query shapes', 'One of the profiles holds no Database entry: their query shapes cannot be compared.', ''];
  return [...shapeList('added', changes.added), ...shapeList('removed', changes.removed)];
}

/** `profiler:diff`: the same as the compare page, as text; every stored value escaped. */
export function formatComparison(comparison: ProfileComparison): string {
  const { a, b } = comparison;
  const sides = formatTable(
    ['', 'A', 'B'],
    [
      ['Token', a.token, b.token],
      ['Status', status(a), status(b)],
      ['Request', `${a.method} ${a.url}`, `${b.method} ${b.url}`],
      ['Route', a.route ?? '(none)', b.route ?? '(none)'],
      ['Profiled on', new Date(a.time).toISOString(), new Date(b.time).toISOString()],
      ['Total', ms(a.duration), ms(b.duration)],
    ],
  );
  return [
    `Compare ${escapeControl(a.token)} (A) with ${escapeControl(b.token)} (B)`,
    '',
    sides,
    `B took ${formatDiff(comparison.total)} against A.`,
    '',
    'States and phases',
    comparison.states.length === 0 ? 'Neither profile recorded its states.\n' : timingTable(comparison.states),
    'Listeners whose time changed most',
    comparison.listeners.length === 0 ? 'Neither profile recorded its listeners.\n' : timingTable(comparison.listeners),
    "The application's I/O",
    comparison.io.length === 0 ? 'Neither profile recorded its queries, HTTP calls or Redis commands.\n' : ioTable(comparison.io),
    ...shapeLines(comparison.queryShapes),
  ].join('\n');
}
