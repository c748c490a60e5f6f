import { CliError } from '../cli-error';
import { type CliCommand } from '../command';
import { escapeControl, escapeJsonControl } from '../format/escape-control';
import { formatSummaryTable } from '../format/format-summary-table';
import { withProfileStorage } from '../with-profile-storage';
import { CONNECTION_HELP } from './connection-help';

const DEFAULT_LIMIT = 20;
/** The storage answers at most this many rows per search. */
const MAX_LIMIT = 1000;

const HELP = `Usage: loupe profiler:list [--limit N] [--method M] [--status CODE] [--url SUBSTRING] [--ip IP] [--json]

Lists stored profiles, newest first, main requests and sub-requests alike (Parent names the
main request of a sub-request). A stored row that cannot be read is listed in its place as
"(unreadable row TOKEN: why)" (with --json: on stderr); the exit code stays 0. Control
characters in stored values are shown escaped (\x1b).

  --limit N          at most N rows, 1 to ${MAX_LIMIT} (default ${DEFAULT_LIMIT})
  --method M         only this HTTP method (GET, POST, …)
  --status CODE      only this status code (0: the client went away)
  --url SUBSTRING    only URLs containing SUBSTRING
  --ip IP            only requests from this client address
  --json             print the rows as JSON
${CONNECTION_HELP}
`;

const OPTIONS = {
  limit: { type: 'string' },
  method: { type: 'string' },
  status: { type: 'string' },
  url: { type: 'string' },
  ip: { type: 'string' },
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

/** `loupe profiler:list`: the search of the profiler panel, as a table or JSON. */
export const profilerListCommand: CliCommand = {
  name: 'profiler:list',
  summary: 'list stored profiles, newest first, with filters',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    if (args.positionals.length > 0) throw CliError.usage(`profiler:list takes no arguments, got "${args.positionals.join(' ')}".`);
    const limit = integerOption('limit', args.string('limit'), 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
    const statusCode = integerOption('status', args.string('status'), 0, 999);
    const method = args.string('method');
    const url = args.string('url');
    const ip = args.string('ip');
    const rows = await withProfileStorage(io.env, args.connection, ({ storage }) =>
      storage.findRows({
        limit,
        ...(statusCode === undefined ? {} : { statusCode }),
        ...(method === undefined ? {} : { method }),
        ...(url === undefined ? {} : { url }),
        ...(ip === undefined ? {} : { ip }),
      }),
    );
    if (args.flag('json')) {
      // stdout stays an array of rows a program can read; what could not be read is said on stderr.
      const summaries = rows.flatMap((row) => (row.ok ? [row.summary] : []));
      io.out(`${escapeJsonControl(JSON.stringify(summaries, null, 2))}\n`);
      for (const row of rows) if (!row.ok) io.err(`(unreadable row ${escapeControl(row.token)}: ${row.error})\n`);
      return 0;
    }
    if (rows.length === 0) {
      io.out('No profiles found.\n');
      return 0;
    }
    io.out(formatSummaryTable(rows));
    // On stderr, so that the table on stdout stays the rows only.
    if (rows.length === limit) io.err(`Showing the newest ${limit}; --limit shows more.\n`);
    return 0;
  },
};
