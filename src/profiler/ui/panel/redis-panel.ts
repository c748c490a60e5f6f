import { html, type SafeHtml } from '../../../view/html';
import { slowCalls } from '../../app-io/analyze-calls';
import { analyzeRepeats, type RepeatedCalls } from '../../app-io/analyze-repeats';
import { REDIS_COLLECTOR, type RedisCollectorData, type StoredRedisCommand } from '../../collect/collectors/app-io-collectors';
import { callFilters, chosenFilter, filteredIndexes, renderCallTotals, renderDuration, renderFilterLinks, renderFlags, renderCallOrigin, renderRowsOrEmpty, type FilterRules } from './call-panel-parts';
import { type PanelContext, type PanelDefinition } from './panel-definition';
import { formatMs } from './panel-format';

/** A loop runs one command on different keys: the shape is the command's name. */
const shapeOf = (command: StoredRedisCommand): string => command.command.toUpperCase();
/** The same command on the same database with the same arguments. */
const exactOf = (command: StoredRedisCommand): string => JSON.stringify([command.database, command.command.toUpperCase(), command.args]);

/**
 * The arguments as the client let them through: ioredis (≥ 5.11) replaces a write's value and
 * every argument after it with `?` before Loupe sees them (SET's `EX 60` included), so the
 * hidden ones are said once, as a count, instead of as a row of question marks.
 */
function renderArgs(args: readonly string[]): SafeHtml {
  let shown = args.length;
  while (shown > 0 && args[shown - 1] === '?') shown -= 1;
  const hidden = args.length - shown;
  return html`<code class="args">${args.slice(0, shown).join(' ')}</code>${
    hidden === 0 ? '' : html` <span class="hidden-args empty" title="The Redis client hides a written value and the arguments after it">+${hidden} hidden argument${hidden === 1 ? '' : 's'}</span>`
  }`;
}

function renderCommand(context: PanelContext<RedisCollectorData>, repeats: RepeatedCalls, slow: ReadonlySet<number>, index: number): SafeHtml {
  const command = context.data.commands[index];
  if (command === undefined) return html``;
  return html`<tr class="redis-command" data-index="${index}"><td>${index + 1}</td><td>${formatMs(command.start)}</td><td>${renderDuration(command.duration)}</td>
<td><code class="command">${command.command.toUpperCase()}</code> ${renderArgs(command.args)}
<span class="help">${command.client}${command.database === null ? '' : ` · db ${command.database}`}${command.batch === undefined ? '' : ` · in batch ${command.batch}`}</span>${renderFlags([
    [repeats.nPlusOne.has(index), 'N+1'],
    [repeats.duplicates.has(index), 'duplicate'],
    [slow.has(index), 'slow'],
    [command.error !== null, 'error'],
  ])}${command.error === null ? '' : html`<p class="call-error status-error-text">${command.error}</p>`}</td>
<td>${renderCallOrigin(command, context.editorLink)}</td></tr>\n`;
}

/**
 * Redis: the application's own commands (Loupe's are not among them), with database, batch
 * (MULTI or pipeline), duration and origin, flagged and filtered as the Database panel's queries.
 */
export const redisPanel: PanelDefinition<RedisCollectorData> = {
  name: 'redis',
  label: 'Redis',
  collector: REDIS_COLLECTOR,
  badge: (data) => {
    if (data.count === 0) return null;
    const loops = analyzeRepeats(data.commands, shapeOf, exactOf).nPlusOne.size;
    return { count: data.count, isError: data.errors > 0, isWarning: loops > 0 || data.slow > 0 };
  },
  render: (context) => {
    const { data, profile, query } = context;
    if (data.count === 0) return html`<h2>Redis</h2><p class="empty">No Redis command of the application was captured.</p>`;
    const repeats = analyzeRepeats(data.commands, shapeOf, exactOf);
    const slow = slowCalls(data.commands, data.slowMs);
    const rules: FilterRules = {
      n_plus_one: (index) => repeats.nPlusOne.has(index),
      duplicates: (index) => repeats.duplicates.has(index),
      slow: (index) => slow.has(index),
      errors: (index) => data.commands[index]?.error !== null,
    };
    const filters = callFilters(data.commands.length, rules);
    const filter = chosenFilter(query, filters);
    return html`<h2>Redis</h2>
${renderCallTotals(data, ['command', 'commands'])}
${renderFilterLinks(profile.token, 'redis', filter, filters)}
<table class="redis-commands">
<thead><tr><th>#</th><th>Start</th><th>Duration</th><th>Command</th><th>Origin</th></tr></thead>
<tbody>
${renderRowsOrEmpty(filteredIndexes(data.commands.length, rules, filter), 5, (index) => renderCommand(context, repeats, slow, index))}</tbody>
</table>`;
  },
};
