import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';
import { escapeJsonControl } from '../../../../log/escape-control';
import { explainStoredQuery } from '../../../explain/explain-stored-query';
import { readExplainConfig } from '../../../explain/read-explain-config';
import { formatPlan } from '../format/format-plan';
import { readStoredProfile } from '../read-stored-profile';
import { withProfileStorage } from '../with-profile-storage';

const HELP = `Usage: loupe profiler:explain TOKEN N [--analyze] [--json] [--database-url URL]

Runs EXPLAIN of query N (as the Database panel and profiler:show number them, from 1) of the
profile TOKEN ("latest" for the newest main request), with its stored parameters, and prints the
plan as a tree: each step with its rows and cost, sequential (full table) scans marked. Only a
SELECT or WITH … SELECT is explained, one statement, whose text and parameters the profile kept
whole (a redacted or cut one is refused, with the reason).

EXPLAIN connects to the database of PROFILER_EXPLAIN_DATABASE_URL for the query's dialect
(postgres://… for pg, mysql://… or mariadb://… for mysql2; both, comma-separated), with the
application's own driver, in a read-only transaction that is rolled back, within
PROFILER_EXPLAIN_TIMEOUT_MS (5000).

  --analyze          EXPLAIN ANALYZE: runs the query, and shows actual rows and time
  --json             print the plan as the database answered it, with the tree, as JSON
  --database-url URL explain on URL instead of PROFILER_EXPLAIN_DATABASE_URL
${CONNECTION_HELP}
`;

const OPTIONS = { analyze: { type: 'boolean' }, json: { type: 'boolean' }, 'database-url': { type: 'string' } } as const;

/** `loupe profiler:explain TOKEN N`: the plan of one stored query, as the Database panel's Explain action shows it. */
export const profilerExplainCommand: CliCommand = {
  name: 'profiler:explain',
  summary: 'EXPLAIN query N of a profile (TOKEN or "latest")',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    const [requested, position, ...extra] = args.positionals;
    if (requested === undefined || position === undefined) throw CliError.usage('profiler:explain needs a TOKEN (or "latest") and the number N of a query.');
    if (extra.length > 0) throw CliError.usage(`profiler:explain takes a TOKEN and N, got also "${extra.join(' ')}".`);
    const number = Number(position);
    if (!/^[1-9]\d*$/.test(position)) throw CliError.usage(`N is a query's number from 1, as profiler:show lists them, not "${position}".`);
    const databaseUrl = args.string('database-url');
    // Read before Redis is opened: an invalid URL is a usage error, whatever is stored.
    const config = readExplainConfig(databaseUrl === undefined ? io.env : { ...io.env, PROFILER_EXPLAIN_DATABASE_URL: databaseUrl });
    const profile = await withProfileStorage(io.env, args.connection, ({ storage, prefix }) => readStoredProfile(storage, prefix, requested));
    const { token } = profile;
    const explained = await explainStoredQuery(profile, number, config, args.flag('analyze'));
    if (!explained.ok) throw new CliError(1, `${explained.title}. ${explained.reason}`);
    if (args.flag('json')) {
      const { output, tree, database, fullScans } = explained;
      io.out(`${escapeJsonControl(JSON.stringify({ token, query: number, database, server: output.server, analyze: output.analyze, statement: output.statement, fullScans, tree, plan: output.plan }, null, 2))}\n`);
      return 0;
    }
    io.out(formatPlan(token, number, explained));
    return 0;
  },
};
