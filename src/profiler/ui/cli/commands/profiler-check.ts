import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { escapeJsonControl } from '../../../../log/escape-control';
import { N_PLUS_ONE } from '../../../app-io/analyze-calls';
import { type ProfileBudget } from '../../../budget/check-budget';
import { checkStoredProfiles } from '../../../budget/check-stored-profiles';
import { checkScope, checkVerdict, formatViolations } from '../format/format-check';
import { SEARCH_SCAN_LIMIT, type ProfileCriteria } from '../../../storage/profile-storage';
import { windowCriteria } from '../search-options';
import { withProfileStorage } from '../with-profile-storage';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';

const HELP = `Usage: loupe profiler:check [--since DURATION] [--route NAME] [--max-queries N]
                           [--no-n-plus-one] [--no-duplicates] [--no-failed-calls]
                           [--max-duration-ms N] [--json]

Checks the stored profiles against a budget and exits 1 when any is over it, listing each
excess with the profile's token, its route, what is over and the application's file:line where
it happened; exits 0 when every profile is within. Run an end-to-end suite against a debug
server, then this. Every stored request is checked (the newest ${SEARCH_SCAN_LIMIT} at most), error
sub-requests included, the browser's /favicon.ico requests left out. When no profile matches,
nothing was checked: it exits 1 and says so (a wrong --prefix would otherwise pass).

  --since DURATION     only requests of the last DURATION: 30s, 10m, 2h, 1d
  --route NAME         only requests of this route (by name)
  --max-queries N      at most N SQL queries per request
  --no-n-plus-one      no query shape run in a loop (N+1: ${N_PLUS_ONE} times or more from one line)
  --no-duplicates      no query that repeats an earlier one exactly (same SQL and parameters)
  --no-failed-calls    no SQL error, no HTTP call that failed or got a 5xx, no Redis error reply
  --max-duration-ms N  each request at most N ms
  --json               print the excesses as JSON (an array; empty when within budget)
At least one of the budget flags is needed.
${CONNECTION_HELP}
`;

const OPTIONS = {
  since: { type: 'string' },
  route: { type: 'string' },
  'max-queries': { type: 'string' },
  'no-n-plus-one': { type: 'boolean' },
  'no-duplicates': { type: 'boolean' },
  'no-failed-calls': { type: 'boolean' },
  'max-duration-ms': { type: 'string' },
  json: { type: 'boolean' },
} as const;


function countOption(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0) throw CliError.usage(`--${name} expects an integer of 0 or more, got "${raw}".`);
  return value;
}

/** The budget the flags give; a usage error when they give none, as a check of nothing would always pass. */
function budgetOf(args: Parameters<CliCommand['run']>[0]): ProfileBudget {
  const maxQueries = countOption('max-queries', args.string('max-queries'));
  const maxDurationMs = countOption('max-duration-ms', args.string('max-duration-ms'));
  const budget: ProfileBudget = {
    ...(maxQueries === undefined ? {} : { maxQueries }),
    ...(args.flag('no-n-plus-one') ? { nPlusOne: false } : {}),
    ...(args.flag('no-duplicates') ? { duplicates: false } : {}),
    ...(args.flag('no-failed-calls') ? { failedCalls: false } : {}),
    ...(maxDurationMs === undefined ? {} : { maxDurationMs }),
  };
  if (Object.keys(budget).length === 0) throw CliError.usage('profiler:check needs a budget: --max-queries N, --no-n-plus-one, --no-duplicates, --no-failed-calls or --max-duration-ms N.');
  return budget;
}

/** `loupe profiler:check`: the stored profiles against a query, call and time budget, for CI. */
export const profilerCheckCommand: CliCommand = {
  name: 'profiler:check',
  summary: 'check the stored profiles against a budget (queries, N+1, duplicates, failed calls, time); exit 1 when over',
  help: HELP,
  options: OPTIONS,
  async run(args, io) {
    if (args.positionals.length > 0) throw CliError.usage(`profiler:check takes no arguments, got "${args.positionals.join(' ')}".`);
    const budget = budgetOf(args);
    const route = args.string('route');
    const criteria: ProfileCriteria = { hideFavicon: true, ...windowCriteria(args.string('since'), route) };
    const { result, prefix } = await withProfileStorage(io.env, args.connection, async ({ storage, prefix: read }) => ({ result: await checkStoredProfiles(storage, criteria, budget), prefix: read }));
    for (const line of result.skipped) io.err(`${line}\n`);
    const { violations } = result;
    if (args.flag('json') && result.checked > 0) io.out(`${escapeJsonControl(JSON.stringify(violations, null, 2))}\n`);
    else if (violations.length > 0) io.out(formatViolations(violations));
    io.err(checkVerdict(result, checkScope(route, args.string('since')), budget, prefix));
    return result.checked === 0 || violations.length > 0 ? 1 : 0;
  },
};
