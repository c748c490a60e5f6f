import { type CliCommand } from '../cli/command';
import { profilerDiffCommand } from '../cli/commands/profiler-diff';
import { profilerListCommand } from '../cli/commands/profiler-list';
import { profilerPurgeCommand } from '../cli/commands/profiler-purge';
import { profilerShowCommand } from '../cli/commands/profiler-show';
import { profilerTailCommand } from '../cli/commands/profiler-tail';

/** The profiler's commands of `loupe`: list, show, tail, diff and purge the stored profiles. */
export const PROFILER_COMMANDS: readonly CliCommand[] = [profilerListCommand, profilerShowCommand, profilerTailCommand, profilerDiffCommand, profilerPurgeCommand];
