import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CliError } from '../../../../cli/cli-error';
import { explainStoredQuery } from '../../../explain/explain-stored-query';
import { readExplainConfig } from '../../../explain/read-explain-config';
import { formatPlan } from '../../cli/format/format-plan';
import { readStoredProfile } from '../../cli/read-stored-profile';
import { type McpToolContext } from '../mcp-tool-context';
import { READ_ONLY_ANNOTATIONS } from '../read-only-annotations';
import { toolAnswer } from '../tool-answer';

const INPUT = {
  token: z.string().min(1).describe('The profile\'s token, or "latest"'),
  query: z.number().int().min(1).describe('The query\'s number, from 1, as show_profile (panel "database") numbers them: #1, #2…'),
};

/** EXPLAIN, never EXPLAIN ANALYZE: the server runs no query of the application's. */
async function explainQuery(token: string, number: number, context: McpToolContext): Promise<string> {
  const config = readExplainConfig(context.env);
  const profile = await context.withStorage(({ storage, prefix }) => readStoredProfile(storage, prefix, token));
  const explained = await explainStoredQuery(profile, number, config, false);
  if (!explained.ok) throw new CliError(1, `${explained.title}. ${explained.reason}`);
  return formatPlan(profile.token, number, explained);
}

/** `explain_query`: profiler:explain TOKEN N, without --analyze. */
export function registerExplainQueryTool(server: McpServer, context: McpToolContext): void {
  server.registerTool(
    'explain_query',
    {
      title: 'EXPLAIN a stored query',
      description:
        'Runs EXPLAIN (never EXPLAIN ANALYZE: the query itself is not run) of one SQL query of a profile with its stored parameters, as `loupe profiler:explain TOKEN N`, and answers the plan as an indented tree: ' +
        'each step with its estimated rows and cost, sequential (full table) scans marked. Use it on a slow query or the query of an N+1 to see whether an index is used. ' +
        'Only a single SELECT or WITH … SELECT whose text and parameters the profile kept whole is explained; anything else is refused with the reason. ' +
        'Needs PROFILER_EXPLAIN_DATABASE_URL in the MCP server\'s environment (postgres://… or mysql://…); it connects in a read-only transaction that is rolled back.',
      inputSchema: INPUT,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    ({ token, query }) => toolAnswer(() => explainQuery(token, query, context)),
  );
}
