import { LoupeError } from '../errors/loupe-error';
import { CliError } from './cli-error';
import { type CliIo } from './cli-io';
import { type CliCommand, type CliContext } from './command';
import { type LoupePlugin } from '../loupe/plugin';
import { profilerCommands } from '../profiler';
import { debugListenersCommand } from './commands/debug-listeners';
import { packageVersion } from './package-version';
import { parseCommandArgs, splitCommand } from './parse-command-args';
import { processIo } from './process-io';
import { terminalSafeIo } from './terminal-safe-io';
import { usage } from './usage';

/** What an application's own CLI adds to Loupe's: its plugins' commands, and their panels' text for profiler:show. */
export interface CliOptions {
  /** The application's plugins: their commands are added, their panels' text shown by profiler:show. */
  readonly plugins?: readonly LoupePlugin[];
}

/** Loupe's commands (the profiler's, debug:listeners), then the plugins'. */
function commandsOf(options: CliOptions): readonly CliCommand[] {
  return [...profilerCommands(), debugListenersCommand, ...(options.plugins ?? []).flatMap((plugin) => plugin.commands ?? [])];
}

function help(argv: readonly string[], io: CliIo, commands: readonly CliCommand[]): number {
  const [topic] = argv;
  if (topic === undefined) {
    io.out(usage(commands));
    return 0;
  }
  const command = commands.find((candidate) => candidate.name === topic);
  if (command === undefined) throw CliError.usage(`Unknown command "${topic}".`);
  io.out(command.help);
  return 0;
}

/** Prints what went wrong; a usage error also prints the usage of the command that failed. */
function report(error: unknown, io: CliIo, command: CliCommand | undefined, commands: readonly CliCommand[]): number {
  if (error instanceof CliError) {
    io.err(`${error.message}\n`);
    if (error.exitCode === 2) io.err(`\n${command?.help ?? usage(commands)}`);
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
export async function main(argv: readonly string[], rawIo: CliIo = processIo(), options: CliOptions = {}): Promise<number> {
  const io = terminalSafeIo(rawIo);
  const commands = commandsOf(options);
  const context: CliContext = { panels: (options.plugins ?? []).flatMap((plugin) => plugin.panels ?? []) };
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
      io.out(usage(commands));
      return 0;
    }
    if (command === 'help') return help(rest.filter((arg) => !arg.startsWith('-')), io, commands);
    running = commands.find((candidate) => candidate.name === command);
    if (running === undefined) throw CliError.usage(`Unknown command "${command}".`);
    const args = parseCommandArgs(rest, running.options);
    if (args.help) {
      io.out(running.help);
      return 0;
    }
    return await running.run(args, io, context);
  } catch (error) {
    return report(error, io, running, commands);
  }
}

/**
 * An application's own `loupe` CLI, with its plugins' commands and, in profiler:show, the text
 * of their panels: `runCli(process.argv.slice(2), { plugins: [myPlugin] })`. Sets the exit code.
 */
export async function runCli(argv: readonly string[] = process.argv.slice(2), options: CliOptions = {}): Promise<number> {
  const code = await main(argv, processIo(), options);
  process.exitCode = code;
  return code;
}
