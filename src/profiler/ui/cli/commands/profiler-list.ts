import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { escapeControl, escapeJsonControl } from '../../../../log/escape-control';
import { formatSummaryTable } from '../format/format-summary-table';
import { N_PLUS_ONE } from '../../../app-io/analyze-calls';
import { SEARCH_ORDERS, SEARCH_SCAN_LIMIT, SEARCH_SORTS, type ProfileCriteria } from '../../../storage/profile-storage';
import { pageNote, statusOption } from '../search-options';
import { withProfileStorage } from '../with-profile-storage';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';
import { type ConnectionFlags } from '../../../../cli/parse-command-args';

const DEFAULT_LIMIT = 20;
/** How the CLI asks for a page, for the note on stderr. */
const nextPage = (page: number): string => `--page ${page}`;
/** The storage answers at most this many rows per search. */
const MAX_LIMIT = 1000;
const MAX_PAGE = 10_000;
/** More queries than any profile keeps. */
const MAX_QUERIES = 1_000_000_000;

const HELP = `Usage: loupe profiler:list [--limit N] [--page N] [--sort time|duration] [--order desc|asc]
                          [--method M] [--status CODE|Nxx] [--url SUBSTRING] [--ip IP]
                          [--min-queries N] [--n-plus-one]
                          [--aborted] [--sub-requests] [--favicon] [--json]

Lists stored profiles, newest first, as the profiler's search page: main requests only unless
--sub-requests (Parent names the main request of a sub-request), without the browser's
/favicon.ico requests unless --favicon. Says on stderr which key prefix it lists (every
application sharing a Redis and a prefix stores its profiles together: without --prefix or
REDIS_PREFIX that is the default "loupe:"), how many matched and which page this is.
A stored row that cannot be read is listed in its place as "(unreadable row TOKEN: why)" (with
--json: on stderr); the exit code stays 0. Control characters in stored values are shown
escaped (\\x1b). A search reads at most the newest ${SEARCH_SCAN_LIMIT} rows of the index.

  --limit N          at most N rows per page, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})
  --page N           the Nth page of --limit rows (default 1)
  --sort FIELD       time (default) or duration
  --order ORDER      desc (default: newest or slowest first) or asc
  --method M         only this HTTP method (GET, POST, …)
  --status CODE      only this status code (0: the client went away), or a class: 4xx, 5xx
  --url SUBSTRING    only URLs containing SUBSTRING
  --ip IP            only requests from this client address
  --min-queries N    only requests that ran at least N SQL queries
  --n-plus-one       only requests that ran a query in a loop (N+1: one query shape run
                     ${N_PLUS_ONE} times or more from the same line)
  --aborted          only requests whose client went away
  --sub-requests     list the error sub-requests too
  --favicon          list the /favicon.ico requests too
  --json             print the rows as JSON
${CONNECTION_HELP}
`;

const OPTIONS = {
  limit: { type: 'string' },
  page: { type: 'string' },
  sort: { type: 'string' },
  order: { type: 'string' },
  method: { type: 'string' },
  status: { type: 'string' },
  url: { type: 'string' },
  ip: { type: 'string' },
  'min-queries': { type: 'string' },
  'n-plus-one': { type: 'boolean' },
  aborted: { type: 'boolean' },
  'sub-requests': { type: 'boolean' },
  favicon: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

function integerOption(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw CliError.usage(`--${name} expects an integer from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

function choiceOption<T extends string>(name: string, raw: string | undefined, choices: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  const choice = choices.find((candidate) => candidate === raw);
  if (choice === undefined) throw CliError.usage(`--${name} expects ${choices.join(' or ')}, got "${raw}".`);
  return choice;
}

/**
 * Which profiles are listed, on stderr: the prefix and where it came from. The default prefix is
 * shared by every application that does not set its own, so its rows may be another app's.
 */
function prefixNote(prefix: string, flags: ConnectionFlags, env: Readonly<Record<string, string | undefined>>): string {
  const shown = `"${escapeControl(prefix)}"`;
  if (flags.prefix !== undefined) return `Profiles under the prefix ${shown} (--prefix).\n`;
  if (env['REDIS_PREFIX'] !== undefined) return `Profiles under the prefix ${shown} (REDIS_PREFIX).\n`;
  return `Profiles under the default prefix ${shown}: every application on this Redis that sets no REDIS_PREFIX stores its profiles there. --prefix PREFIX (or REDIS_PREFIX) lists one application's; --url narrows to a path.\n`;
}

/** `loupe profiler:list`: the search of the profiler panel, as a table or JSON. */
export const profilerListCommand: CliCommand = {
  name: 'profiler:list',
  summary: 'list stored profiles, newest first, with filters, sorting and pages',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    if (args.positionals.length > 0) throw CliError.usage(`profiler:list takes no arguments, got "${args.positionals.join(' ')}".`);
    const limit = integerOption('limit', args.string('limit'), 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
    const page = integerOption('page', args.string('page'), 1, MAX_PAGE) ?? 1;
    const sort = choiceOption('sort', args.string('sort'), SEARCH_SORTS);
    const order = choiceOption('order', args.string('order'), SEARCH_ORDERS);
    const method = args.string('method');
    const url = args.string('url');
    const ip = args.string('ip');
    const minQueries = integerOption('min-queries', args.string('min-queries'), 0, MAX_QUERIES);
    const criteria: ProfileCriteria = {
      limit,
      ...(page > 1 ? { offset: (page - 1) * limit } : {}),
      ...(sort === undefined ? {} : { sort }),
      ...(order === undefined ? {} : { order }),
      ...statusOption(args.string('status')),
      ...(method === undefined ? {} : { method }),
      ...(url === undefined ? {} : { url }),
      ...(ip === undefined ? {} : { ip }),
      ...(minQueries === undefined || minQueries === 0 ? {} : { minQueries }),
      ...(args.flag('n-plus-one') ? { nPlusOne: true } : {}),
      ...(args.flag('aborted') ? { aborted: true } : {}),
      ...(args.flag('sub-requests') ? {} : { mainRequestsOnly: true }),
      ...(args.flag('favicon') ? {} : { hideFavicon: true }),
    };
    const { result, prefix } = await withProfileStorage(io.env, args.connection, async ({ storage, prefix: listed }) => ({ result: await storage.search(criteria), prefix: listed }));
    io.err(prefixNote(prefix, args.connection, io.env));
    const { rows } = result;
    if (args.flag('json')) {
      // stdout stays an array of rows a program can read; what could not be read is said on stderr.
      const summaries = rows.flatMap((row) => (row.ok ? [row.summary] : []));
      io.out(`${escapeJsonControl(JSON.stringify(summaries, null, 2))}\n`);
      for (const row of rows) if (!row.ok) io.err(`(unreadable row ${escapeControl(row.token)}: ${row.error})\n`);
      io.err(pageNote(result, page, limit, nextPage));
      return 0;
    }
    if (rows.length === 0) {
      io.out('No profiles found.\n');
      if (result.total > 0) io.err(pageNote(result, page, limit, nextPage));
      return 0;
    }
    io.out(formatSummaryTable(rows));
    io.err(pageNote(result, page, limit, nextPage));
    return 0;
  },
};
