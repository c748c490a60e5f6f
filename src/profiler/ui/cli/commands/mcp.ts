import { CliError } from '../../../../cli/cli-error';
import { type CliCommand } from '../../../../cli/command';
import { CONNECTION_HELP } from '../../../../cli/commands/connection-help';
import { hideRedisPassword } from '../../../../redis/hide-redis-password';
import { MCP_ANSWER_CHARS } from '../../mcp/bound-answer';
import { connectionConfig } from '../with-profile-storage';

const HELP = `Usage: loupe mcp

Serves the stored profiles to a coding agent as a Model Context Protocol (MCP) server on standard
input and output, until the agent closes it. Its tools only read: search_profiles, show_profile,
query_problems (N+1 and slow queries, with their lines, the loop's and the batched form),
recent_errors, compare_profiles, explain_query (EXPLAIN, never ANALYZE; needs
PROFILER_EXPLAIN_DATABASE_URL) and check_budgets. Each answer is text of at most ${MCP_ANSWER_CHARS}
characters; a longer one ends with a line that says what was cut. Each tool call connects to
Redis and quits: a Redis that is down fails that call with the reason, and the server goes on.

In an agent's configuration (.mcp.json, .cursor/mcp.json, …):
  {"mcpServers":{"loupe":{"command":"npx","args":["loupe","mcp"],"env":{"REDIS_URL":"redis://127.0.0.1:6379"}}}}

${CONNECTION_HELP}
`;

/** `loupe mcp`: the MCP server for coding agents; the SDK and zod are loaded only when it runs. */
export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'serve the stored profiles to a coding agent (Model Context Protocol on stdio; read-only)',
  help: HELP,
  options: {},
  async run(args, io, context) {
    if (args.positionals.length > 0) throw CliError.usage(`mcp takes no arguments, got "${args.positionals.join(' ')}".`);
    if (io.stdio === undefined) throw new CliError(1, 'loupe mcp speaks on standard input and output, and this CLI was given none.');
    // Read once at start: a wrong REDIS_URL or prefix is said now, not at every tool call.
    const config = connectionConfig(io.env, args.connection);
    const { serveMcp } = await import('../../mcp/serve-mcp');
    const { mcpToolContext } = await import('../../mcp/mcp-tool-context');
    io.err(`loupe mcp: serving the profiles under the prefix "${config.prefix}" of ${hideRedisPassword(config.url)} on stdio, read-only.\n`);
    await serveMcp({
      context: mcpToolContext(io.env, args.connection, context.panels),
      stdio: io.stdio,
      ...(io.untilInterrupted === undefined ? {} : { untilInterrupted: io.untilInterrupted }),
    });
    return 0;
  },
};
