import { LoupeError } from '../errors/loupe-error';
import { CliError } from './cli-error';
import { type CliIo } from './cli-io';
import { type CliCommand } from './command';
import { debugListenersCommand } from './commands/debug-listeners';
import { profilerDiffCommand } from './commands/profiler-diff';
import { profilerListCommand } from './commands/profiler-list';
import { profilerPurgeCommand } from './commands/profiler-purge';
import { profilerShowCommand } from './commands/profiler-show';
import { profilerTailCommand } from './commands/profiler-tail';
import { packageVersion } from './package-version';
import { parseCommandArgs, splitCommand } from './parse-command-args';
import { processIo } from './process-io';
import { terminalSafeIo } from './terminal-safe-io';
import { usage } from './usage';

const COMMANDS: readonly CliCommand[] = [profilerListCommand, profilerShowCommand, profilerTailCommand, profilerDiffCommand, profilerPurgeCommand, debugListenersCommand];

function find(name: string): CliCommand | undefined {
  return COMMANDS.find((command) => command.name === name);
}

function help(argv: readonly string[], io: CliIo): number {
  const [topic] = argv;
  if (topic === undefined) {
    io.out(usage(COMMANDS));
    return 0;
  }
  const command = find(topic);
  if (command === undefined) throw CliError.usage(`Unknown command "${topic}".`);
  io.out(command.help);
  return 0;
}

/** Prints what went wrong; a usage error also prints the usage of the command that failed. */
function report(error: unknown, io: CliIo, command: CliCommand | undefined): number {
  if (error instanceof CliError) {
    io.err(`${error.message}\n`);
    if (error.exitCode === 2) io.err(`\n${command?.help ?? usage(COMMANDS)}`);
    return error.exitCode;
  }
  if (error instanceof LoupeError) {
    // Its message says what to do (how to start Redis, which variable is wrong); the cause says why.
    const cause = error.cause instanceof Error ? `\nCause: ${error.cause.message}` : '';
    io.err(`${error.message}${cause}\n`);
    return 1;
  }
  io.err(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}

/**
 * Runs `loupe <command> [flags]` and answers the exit code: 0 done, 1 failed, 2 usage error.
 * Its output escapes control characters, so that stored values cannot drive the terminal. Never throws and never calls `process.exit`, so that output is flushed and Redis is quit.
 */
export async function main(argv: readonly string[], rawIo: CliIo = processIo()): Promise<number> {
  const io = terminalSafeIo(rawIo);
  let running: CliCommand | undefined;
  try {
    const { command, rest } = splitCommand(argv);
    if (command === undefined) {
      if (rest.length === 1 && (rest[0] === '--version' || rest[0] === '-v')) {
        io.out(`loupe ${packageVersion()}\n`);
        return 0;
      }
      // `loupe`, `loupe --help`: the usage. Any other flag without a command is a mistake.
      const onlyHelp = rest.every((arg) => arg === '--help' || arg === '-h');
      if (!onlyHelp) throw CliError.usage('No command given.');
      io.out(usage(COMMANDS));
      return 0;
    }
    if (command === 'help') return help(rest.filter((arg) => !arg.startsWith('-')), io);
    running = find(command);
    if (running === undefined) throw CliError.usage(`Unknown command "${command}".`);
    const args = parseCommandArgs(rest, running.options);
    if (args.help) {
      io.out(running.help);
      return 0;
    }
    return await running.run(args, io);
  } catch (error) {
    return report(error, io, running);
  }
}
