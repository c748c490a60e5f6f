import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { compareStoredProfiles } from '../../cli/compare-stored-profiles';
import { formatComparison } from '../../cli/format/format-comparison';
import { type McpToolContext } from '../mcp-tool-context';
import { READ_ONLY_ANNOTATIONS } from '../read-only-annotations';
import { toolAnswer } from '../tool-answer';

const INPUT = {
  b: z.string().min(1).describe('The profile to look at: a token, or "latest"'),
  a: z.string().min(1).optional().describe('The profile to compare it with; omitted: the request before b of the same route'),
};

/** `compare_profiles`: profiler:diff, B measured against A. */
export function registerCompareProfilesTool(server: McpServer, context: McpToolContext): void {
  server.registerTool(
    'compare_profiles',
    {
      title: 'Compare two profiles',
      description:
        'Compares profile b with profile a, as `loupe profiler:diff A B`: status, route and total time side by side, the time of each kernel phase and of the listeners that changed most, ' +
        "the application's SQL queries, HTTP calls and Redis commands (count and time), and the query shapes b ran that a did not (added) and the other way (removed). " +
        'Use it after a change to see what it cost or saved: without a, b is compared with the previous request of the same route.',
      inputSchema: INPUT,
      annotations: READ_ONLY_ANNOTATIONS,
    },
    ({ a, b }) =>
      toolAnswer(async () => {
        const comparison = await context.withStorage(({ storage, prefix }) => (a === undefined ? compareStoredProfiles(storage, prefix, b, undefined, 'a and b') : compareStoredProfiles(storage, prefix, a, b, 'a and b')));
        return formatComparison(comparison);
      }),
  );
}
