import { analyzeQueries, isRequestOrigin, originFunction, originText, requestOriginText, type QueryAnalysis, type StoredCall, type StoredOrigin } from '../../../app-io/analyze-calls';
import { groupBatchRewrite } from '../../../app-io/batch-rewrite';
import { isFailedHttpCall } from '../../../app-io/http-call-outcome';
import { type CallTotals, type DatabaseCollectorData, type HttpClientCollectorData, type RedisCollectorData } from '../../../collect/collectors/app-io-collectors';
import { formatDuration } from '../../../../cli/format/format-duration';

/** Calls listed at most per section: a request that ran thousands stays a screenful; --json has them all. */
export const SHOWN_CALLS = 50;
/** Query shapes flagged N+1 listed at most. */
const SHOWN_GROUPS = 10;
/** Characters of one SQL text, URL or command line shown: each call stays one line. */
const LINE_CHARS = 200;

/** `text` on one line (SQL keeps its newlines and indentation), cut to `max` characters with `…`. */
export function oneLine(text: string, max = LINE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // Never split a surrogate pair: half of one is no character.
  const code = flat.charCodeAt(max - 1);
  return `${flat.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)}…`;
}

function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}

function duration(call: StoredCall): string {
  return call.duration === null ? 'running' : formatDuration(call.duration);
}

/** `  at file:line (function)`, `  issued by pg in listPosts` with only the request's position, or nothing without an origin. */
function origin(call: StoredCall): string {
  if (call.origin === null) return '';
  if (isRequestOrigin(call.origin)) return `  ${requestOriginText(call.origin)}`;
  const fn = originFunction(call.origin);
  return `  at ${originText(call.origin)}${fn === '' ? '' : ` (${fn})`}`;
}

/** A frame of a call's stack as `file:line (function)`. */
function frameText(frame: StoredOrigin): string {
  const fn = originFunction(frame);
  return `${originText(frame)}${fn === '' ? '' : ` (${fn})`}`;
}

/** The frames of a call's stack above its origin, one line each, under the call (`--json` has them as stored). */
function stackLines(call: StoredCall): string[] {
  return (call.stack ?? []).slice(1).map((frame) => `      called from ${frameText(frame)}`);
}

/** The totals line every section starts with: count, time, and the flags that are not zero. */
function totalsLine(totals: CallTotals, [word, words]: readonly [string, string], extra: readonly string[] = []): string {
  const flags = [
    ...extra,
    ...(totals.slow > 0 ? [`${totals.slow} slow (at least ${totals.slowMs} ms)`] : []),
    ...(totals.errors > 0 ? [plural(totals.errors, 'error')] : []),
    ...(totals.dropped > 0 ? [`${totals.dropped} past PROFILER_MAX_ENTRIES, counted but not kept`] : []),
  ];
  return `${plural(totals.count, word, words)} in ${formatDuration(totals.time)}${flags.length === 0 ? '' : `; ${flags.join(', ')}`}`;
}

function more(listed: number, kept: number): string[] {
  return kept > listed ? [`… ${kept - listed} more (--json shows them)`] : [];
}

/**
 * The query shapes run in a loop (N+1), at most SHOWN_GROUPS: how often, how long, the SQL, the
 * lines they ran from, the line of the loop, and the batched form that would replace them.
 */
export function nPlusOneLines(data: DatabaseCollectorData, analysis: QueryAnalysis): string[] {
  const loops = analysis.groups.filter((group) => group.nPlusOne);
  if (loops.length === 0) return [];
  const lines = ['N+1 (one query shape run in a loop: one query could fetch them all)'];
  for (const group of loops.slice(0, SHOWN_GROUPS)) {
    lines.push(`  ${group.count}x  ${formatDuration(group.time)}  ${oneLine(group.sql)}`);
    if (group.origins.length > 0) lines.push(`      from ${group.origins.slice(0, 3).join(', ')}${group.origins.length > 3 ? ', …' : ''}`);
    if (group.loop !== null) lines.push(`      in the loop at ${frameText(group.loop)}`);
    const rewrite = groupBatchRewrite(group, data.queries);
    if (rewrite !== null) lines.push(`      batched: ${oneLine(rewrite.sql)}  (one query for the ${group.count} values of ${rewrite.column}: ${rewrite.saved} round trips fewer)`);
  }
  if (loops.length > SHOWN_GROUPS) lines.push(`  … ${loops.length - SHOWN_GROUPS} more shapes`);
  return lines;
}

/** Query `index` of `data`: its number, time, driver, marks (N+1, duplicate, slow, error), rows and origin, then its SQL and the frames of its stack. */
export function queryLines(data: DatabaseCollectorData, analysis: QueryAnalysis, index: number): string[] {
  const query = data.queries[index];
  if (query === undefined) return [];
  const marks = [
    ...(analysis.groups.some((group) => group.nPlusOne && group.queries.includes(index)) ? ['N+1'] : []),
    ...(analysis.duplicates.has(index) ? ['duplicate'] : []),
    ...(analysis.slow.has(index) ? ['slow'] : []),
    ...(query.error === null ? [] : [`error: ${oneLine(query.error, 120)}`]),
  ];
  const rows = query.rows === null ? '' : `  ${plural(query.rows, 'row')}`;
  return [
    `  #${index + 1}  ${duration(query)}  ${query.driver}${query.database === '' ? '' : ` ${query.database}`}${marks.length === 0 ? '' : `  [${marks.join('] [')}]`}${rows}${origin(query)}`,
    `      ${oneLine(query.sql)}`,
    ...stackLines(query),
  ];
}

/**
 * The Database section: totals, the query shapes run in a loop (N+1) with where they came from,
 * then each query with its time, marks (N+1, duplicate, slow, error) and origin.
 */
export function databaseLines(data: DatabaseCollectorData): string[] {
  if (data.count === 0) return [];
  const analysis = analyzeQueries(data.queries, data.slowMs);
  const loops = analysis.groups.filter((group) => group.nPlusOne).length;
  const lines = [totalsLine(data, ['query', 'queries'], [...(loops > 0 ? [`${loops} N+1`] : []), ...(analysis.duplicates.size > 0 ? [plural(analysis.duplicates.size, 'duplicate')] : [])])];
  const loopLines = nPlusOneLines(data, analysis);
  if (loopLines.length > 0) lines.push('', ...loopLines);
  lines.push('', 'Queries');
  for (let index = 0; index < Math.min(SHOWN_CALLS, data.queries.length); index++) lines.push(...queryLines(data, analysis, index));
  return lines.concat(more(SHOWN_CALLS, data.queries.length));
}

/** The HTTP calls section: totals, then method, URL, status, time and origin of each call. */
export function httpClientLines(data: HttpClientCollectorData): string[] {
  if (data.count === 0) return [];
  const warnings = data.warnings ?? 0;
  const lines = [totalsLine(data, ['call', 'calls'], warnings > 0 ? [`${warnings} answered 4xx`] : [])];
  for (const call of data.calls.slice(0, SHOWN_CALLS)) {
    const status = call.error === null ? `${call.status}${isFailedHttpCall(call) ? ' [error]' : ''}` : `error: ${oneLine(call.error, 120)}`;
    lines.push(`${call.method} ${oneLine(call.url)}  ${status}  ${duration(call)}  (${call.client})${origin(call)}`, ...stackLines(call));
  }
  return lines.concat(more(SHOWN_CALLS, data.calls.length));
}

/** The Redis section: totals, then each command with its arguments (as redacted and cut when stored). */
export function redisLines(data: RedisCollectorData): string[] {
  if (data.count === 0) return [];
  const lines = [totalsLine(data, ['command', 'commands'])];
  for (const command of data.commands.slice(0, SHOWN_CALLS)) {
    const where = `${command.database === null ? '' : `  db ${command.database}`}${command.batch === undefined ? '' : `  batch ${command.batch}`}`;
    const error = command.error === null ? '' : `  error: ${oneLine(command.error, 120)}`;
    lines.push(`${oneLine([command.command.toUpperCase(), ...command.args].join(' '))}  ${duration(command)}${where}${error}${origin(command)}`, ...stackLines(command));
  }
  return lines.concat(more(SHOWN_CALLS, data.commands.length));
}
