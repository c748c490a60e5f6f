import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { analyzeQueries, N_PLUS_ONE } from '../../../app-io/analyze-calls';
import { DATABASE_COLLECTOR, type DatabaseCollectorData } from '../../../collect/collectors/app-io-collectors';
import { collectorData, type Profile } from '../../../profile';
import { nPlusOneLines, queryLines } from '../../cli/format/format-app-io';
import { readStoredProfile } from '../../cli/read-stored-profile';
import { checkScope } from '../../cli/format/format-check';
import { windowCriteria } from '../../cli/search-options';
import { type McpToolContext } from '../mcp-tool-context';
import { readRecentProfiles, profileLine } from '../recent-profiles';
import { READ_ONLY_ANNOTATIONS } from '../read-only-annotations';
import { toolAnswer } from '../tool-answer';
import { WINDOW_INPUT } from './window-input';

/** Profiles read at most without a token. */
const MAX_PROFILES = 100;
const DEFAULT_PROFILES = 20;
/** Slow queries listed per profile. */
const SHOWN_SLOW = 10;

const INPUT = {
  token: z.string().min(1).optional().describe('One profile\'s token, or "latest"; omitted: the newest requests'),
  ...WINDOW_INPUT,
  limit: z.number().int().min(1).max(MAX_PROFILES).optional().describe(`Without a token: how many of the newest requests to look at, 1 to ${MAX_PROFILES} (default ${DEFAULT_PROFILES})`),
};

type ProblemsInput = { readonly [K in keyof typeof INPUT]?: z.infer<(typeof INPUT)[K]> };

/** The N+1 shapes and slow queries of `profile`, under its line; none when it has neither. */
function problemLines(profile: Profile): string[] {
  const data = collectorData<DatabaseCollectorData>(profile, DATABASE_COLLECTOR);
  if (data === undefined || !Array.isArray(data.queries) || data.queries.length === 0) return [];
  const analysis = analyzeQueries(data.queries, data.slowMs);
  const loops = nPlusOneLines(data, analysis);
  const slow = [...analysis.slow];
  if (loops.length === 0 && slow.length === 0) return [];
  const slowLines = slow.length === 0 ? [] : [`Slow queries (at least ${data.slowMs} ms)`, ...slow.slice(0, SHOWN_SLOW).flatMap((index) => queryLines(data, analysis, index))];
  const more = slow.length > SHOWN_SLOW ? [`  … ${slow.length - SHOWN_SLOW} more slow queries (show_profile, panel "database", lists every query)`] : [];
  return [profileLine(profile), ...[...loops, ...slowLines, ...more].map((line) => `  ${line}`), ''];
}

async function queryProblems(input: ProblemsInput, context: McpToolContext): Promise<string> {
  const { token } = input;
  if (token !== undefined) {
    const profile = await context.withStorage(({ storage, prefix }) => readStoredProfile(storage, prefix, token));
    const lines = problemLines(profile);
    return lines.length > 0 ? `${lines.join('\n')}` : `${profileLine(profile)}\n  No N+1 and no slow query.\n`;
  }
  const criteria = windowCriteria(input.since, input.route);
  const limit = input.limit ?? DEFAULT_PROFILES;
  const { kept, read } = await context.withStorage(({ storage }) => readRecentProfiles(storage, criteria, limit, limit, (profile) => problemLines(profile).length > 0));
  const scope = `${read} newest ${read === 1 ? 'request' : 'requests'}${checkScope(input.route, input.since)}`;
  if (kept.length === 0) return `No N+1 and no slow query in the ${scope}.\n`;
  return `${kept.length} of the ${scope} ran a query in a loop (N+1) or a slow query:\n\n${kept.flatMap(problemLines).join('\n')}`;
}

/** `query_problems`: the N+1 shapes and slow queries of one profile or of the newest ones, with where they come from. */
export function registerQueryProblemsTool(server: McpServer, context: McpToolContext): void {
  server.registerTool(
    'query_problems',
    {
      title: 'N+1 and slow queries',
      description:
        `Lists the SQL problems of one profile (token) or of the newest requests: each query shape run in a loop (N+1: ${N_PLUS_ONE} times or more from one line) with how often and how long, ` +
        'the file:line it ran from, the line of the loop that repeats it, and the batched query that would replace it (e.g. WHERE id = ANY($1)) with the round trips it saves; ' +
        'then each slow query with its time, file:line origin and the frames that called it. Use it first when a page is slow or runs many queries: it names the lines to change. ' +
        'Query numbers (#N) are those explain_query takes.',
      inputSchema: INPUT,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    (input) => toolAnswer(() => queryProblems(input, context)),
  );
}
