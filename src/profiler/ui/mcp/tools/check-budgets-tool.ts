import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CliError } from '../../../../cli/cli-error';
import { N_PLUS_ONE } from '../../../app-io/analyze-calls';
import { type ProfileBudget } from '../../../budget/check-budget';
import { checkStoredProfiles } from '../../../budget/check-stored-profiles';
import { checkScope, checkVerdict, formatViolations } from '../../cli/format/format-check';
import { windowCriteria } from '../../cli/search-options';
import { type McpToolContext } from '../mcp-tool-context';
import { READ_ONLY_ANNOTATIONS } from '../read-only-annotations';
import { toolAnswer } from '../tool-answer';
import { WINDOW_INPUT } from './window-input';

const INPUT = {
  ...WINDOW_INPUT,
  maxQueries: z.number().int().min(0).optional().describe('At most this many SQL queries per request'),
  noNPlusOne: z.boolean().optional().describe(`true: no query shape run in a loop (N+1: ${N_PLUS_ONE} times or more from one line)`),
  noDuplicates: z.boolean().optional().describe('true: no query that repeats an earlier one exactly (same SQL and parameters)'),
  noFailedCalls: z.boolean().optional().describe('true: no SQL error, no HTTP call that failed or got a 5xx, no Redis error reply'),
  maxDurationMs: z.number().int().min(0).optional().describe('Each request at most this many milliseconds'),
};

type CheckInput = { readonly [K in keyof typeof INPUT]?: z.infer<(typeof INPUT)[K]> };

/** The budget of the input; an error when it names none, as a check of nothing would always pass. */
function budgetOf(input: CheckInput): ProfileBudget {
  const budget: ProfileBudget = {
    ...(input.maxQueries === undefined ? {} : { maxQueries: input.maxQueries }),
    ...(input.noNPlusOne === true ? { nPlusOne: false } : {}),
    ...(input.noDuplicates === true ? { duplicates: false } : {}),
    ...(input.noFailedCalls === true ? { failedCalls: false } : {}),
    ...(input.maxDurationMs === undefined ? {} : { maxDurationMs: input.maxDurationMs }),
  };
  if (Object.keys(budget).length === 0) throw CliError.usage('check_budgets needs a budget: maxQueries, noNPlusOne, noDuplicates, noFailedCalls or maxDurationMs.');
  return budget;
}

async function checkBudgets(input: CheckInput, context: McpToolContext): Promise<string> {
  const budget = budgetOf(input);
  const criteria = { hideFavicon: true, ...windowCriteria(input.since, input.route) };
  const { check, prefix } = await context.withStorage(async ({ storage, prefix: read }) => ({ check: await checkStoredProfiles(storage, criteria, budget), prefix: read }));
  const verdict = checkVerdict(check, checkScope(input.route, input.since), budget, prefix);
  const skipped = check.skipped.map((line) => `${line}\n`).join('');
  return check.violations.length === 0 ? `${verdict}${skipped}` : `${verdict}\n${formatViolations(check.violations)}${skipped}`;
}

/** `check_budgets`: profiler:check, answering the excesses instead of an exit code. */
export function registerCheckBudgetsTool(server: McpServer, context: McpToolContext): void {
  server.registerTool(
    'check_budgets',
    {
      title: 'Check budgets',
      description:
        'Checks the stored profiles against a budget, as `loupe profiler:check`: at most N queries per request, no N+1, no duplicate query, no failed call, at most N ms. ' +
        'Answers a verdict line ("2 of 14 profiles over budget (…)", or "… within budget"), then one row per excess: token, route, request, what is over budget and the application\'s file:line. ' +
        'Use it after running a test suite or a few requests against the debug server, to find what to fix; narrow with since and route. Every stored request is checked, error sub-requests included.',
      inputSchema: INPUT,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    (input) => toolAnswer(() => checkBudgets(input, context)),
  );
}
