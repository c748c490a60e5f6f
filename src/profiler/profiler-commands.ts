import { type CliCommand } from '../cli/command';
import { profilerCheckCommand } from './ui/cli/commands/profiler-check';
import { profilerDiffCommand } from './ui/cli/commands/profiler-diff';
import { profilerExplainCommand } from './ui/cli/commands/profiler-explain';
import { profilerListCommand } from './ui/cli/commands/profiler-list';
import { profilerPurgeCommand } from './ui/cli/commands/profiler-purge';
import { profilerServeCommand } from './ui/cli/commands/profiler-serve';
import { profilerShowCommand } from './ui/cli/commands/profiler-show';
import { profilerTailCommand } from './ui/cli/commands/profiler-tail';
import { mcpCommand } from './ui/cli/commands/mcp';

/** The profiler's commands of `loupe`: list, show, tail, diff, check and purge the stored profiles, explain a stored query, serve their pages, and serve them to a coding agent (mcp). */
export const PROFILER_COMMANDS: readonly CliCommand[] = [profilerListCommand, profilerShowCommand, profilerTailCommand, profilerDiffCommand, profilerCheckCommand, profilerExplainCommand, profilerPurgeCommand, profilerServeCommand, mcpCommand];
