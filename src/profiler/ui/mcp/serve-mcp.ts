import { type Readable, type Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { packageVersion } from '../../../cli/package-version';
import { MCP_ANSWER_CHARS } from './bound-answer';
import { type McpToolContext } from './mcp-tool-context';
import { registerCheckBudgetsTool } from './tools/check-budgets-tool';
import { registerCompareProfilesTool } from './tools/compare-profiles-tool';
import { registerExplainQueryTool } from './tools/explain-query-tool';
import { registerQueryProblemsTool } from './tools/query-problems-tool';
import { registerRecentErrorsTool } from './tools/recent-errors-tool';
import { registerSearchProfilesTool } from './tools/search-profiles-tool';
import { registerShowProfileTool } from './tools/show-profile-tool';

/** Every tool of the server, in the order an agent meets them. */
const TOOLS: readonly ((server: McpServer, context: McpToolContext) => void)[] = [
  registerSearchProfilesTool,
  registerShowProfileTool,
  registerQueryProblemsTool,
  registerRecentErrorsTool,
  registerCompareProfilesTool,
  registerExplainQueryTool,
  registerCheckBudgetsTool,
];

const INSTRUCTIONS = [
  "Loupe's profiler: every request a Loupe application (or one with a Loupe adapter) served in debug mode is stored as a profile under a token, the X-Debug-Token header of its response.",
  'Start with query_problems (N+1 and slow queries, with the lines to change) or recent_errors; search_profiles finds a request by URL, route or status; show_profile reads one, whole or one panel.',
  `Every tool only reads. Answers are text of at most ${MCP_ANSWER_CHARS} characters; a longer one ends with a line that says what was cut.`,
].join(' ');

/** Where the server speaks, and when it stops besides its client closing standard input. */
export interface McpServing {
  readonly context: McpToolContext;
  readonly stdio: { readonly input: Readable; readonly output: Writable };
  /** Resolves on SIGINT or SIGTERM. */
  readonly untilInterrupted?: () => Promise<void>;
}

/** Resolves when the client closes its end of standard input. */
function untilInputEnds(input: Readable): Promise<void> {
  return new Promise((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
}

/**
 * Serves Loupe's MCP tools over stdio (JSON-RPC messages, one a line, on `stdio`) until the
 * client closes standard input or the process is interrupted. Nothing else may write to the
 * output: it is the protocol's.
 */
export async function serveMcp({ context, stdio, untilInterrupted }: McpServing): Promise<void> {
  const server = new McpServer({ name: 'loupe', title: 'Loupe profiler', version: packageVersion() }, { instructions: INSTRUCTIONS });
  for (const register of TOOLS) register(server, context);
  const transport = new StdioServerTransport(stdio.input, stdio.output);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  await Promise.race([closed, untilInputEnds(stdio.input), ...(untilInterrupted === undefined ? [] : [untilInterrupted()])]);
  await server.close();
}
