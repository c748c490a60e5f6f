import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { formatTable } from '../../../../cli/format/format-table';
import { escapeJsonControl } from '../../../../log/escape-control';
import { N_PLUS_ONE } from '../../../app-io/analyze-calls';
import { checkBudget, type BudgetViolation, type ProfileBudget } from '../../../budget/check-budget';
import { budgetText } from '../../../budget/budget-text';
import { parseProfile } from '../../../profile-schema';
import { SEARCH_SCAN_LIMIT, type ProfileCriteria, type ProfileStorage } from '../../../storage/profile-storage';
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

/** Rows asked for per search page: the most the storage answers at once. */
const PAGE = 1000;
/** Profiles read at once. */
const READS = 16;
const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since 10m`: milliseconds. */
function sinceOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const match = /^(\d{1,9})(s|m|h|d)$/.exec(raw.trim());
  const unit = match === null ? undefined : UNITS[match[2] ?? ''];
  if (match === null || unit === undefined) throw CliError.usage(`--since expects a duration such as 30s, 10m, 2h or 1d, got "${raw}".`);
  return Number(match[1]) * unit;
}

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

/** The tokens of every stored profile matching `criteria`, page by page. */
async function matchingTokens(storage: ProfileStorage, criteria: ProfileCriteria): Promise<{ tokens: string[]; unreadable: string[] }> {
  const tokens: string[] = [];
  const unreadable: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await storage.search({ ...criteria, offset, limit: PAGE });
    for (const row of page.rows) {
      if (row.ok) tokens.push(row.summary.token);
      else unreadable.push(`(unreadable row ${row.token}: ${row.error})`);
    }
    if (page.rows.length < PAGE || offset + PAGE >= page.total) return { tokens, unreadable };
  }
}

/** Checks each profile of `tokens`, READS at a time; a profile gone or unreadable since the search is said, not counted. */
async function checkAll(storage: ProfileStorage, tokens: readonly string[], budget: ProfileBudget): Promise<{ violations: BudgetViolation[]; checked: number; skipped: string[] }> {
  const violations: BudgetViolation[] = [];
  const skipped: string[] = [];
  let checked = 0;
  for (let start = 0; start < tokens.length; start += READS) {
    const reads = await Promise.all(tokens.slice(start, start + READS).map(async (token) => ({ token, found: await storage.read(token) })));
    for (const { token, found } of reads) {
      if (found.kind !== 'found') continue;
      const parsed = parseProfile(found.json);
      if (!parsed.ok) {
        skipped.push(`(unreadable profile ${token}: ${parsed.error})`);
        continue;
      }
      checked++;
      violations.push(...checkBudget(parsed.profile, budget));
    }
  }
  return { violations, checked, skipped };
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
    const since = sinceOption(args.string('since'));
    const route = args.string('route');
    const criteria: ProfileCriteria = {
      hideFavicon: true,
      ...(since === undefined ? {} : { start: Date.now() - since }),
      ...(route === undefined ? {} : { route }),
    };
    const { result, prefix } = await withProfileStorage(io.env, args.connection, async ({ storage, prefix: read }) => {
      const { tokens, unreadable } = await matchingTokens(storage, criteria);
      const checked = await checkAll(storage, tokens, budget);
      return { result: { ...checked, skipped: [...unreadable, ...checked.skipped] }, prefix: read };
    });
    for (const line of result.skipped) io.err(`${line}\n`);
    const scope = `${route === undefined ? '' : ` of the route "${route}"`}${args.string('since') === undefined ? '' : ` of the last ${args.string('since') ?? ''}`}`;
    if (result.checked === 0) {
      io.err(`No profile${scope} is stored under the prefix "${prefix}": nothing was checked. --prefix PREFIX (or REDIS_PREFIX) names the server's.\n`);
      return 1;
    }
    const { violations } = result;
    if (args.flag('json')) io.out(`${escapeJsonControl(JSON.stringify(violations, null, 2))}\n`);
    else if (violations.length > 0) {
      io.out(formatTable(['Token', 'Route', 'Request', 'Over budget', 'Origin'], violations.map((v) => [v.token, v.route ?? '-', v.request, v.what, v.origin === '' ? '-' : v.origin])));
    }
    const over = new Set(violations.map((violation) => violation.token)).size;
    const profiles = (count: number): string => `${count} ${count === 1 ? 'profile' : 'profiles'}`;
    if (over === 0) {
      io.err(`${profiles(result.checked)}${scope} within budget (${budgetText(budget)}).\n`);
      return 0;
    }
    io.err(`${over} of ${profiles(result.checked)}${scope} over budget (${budgetText(budget)}).\n`);
    return 1;
  },
};
