import { type CliIo } from './cli-io';

/** One `loupe` command: its name, what `loupe help` says about it, and how it runs. */
export interface CliCommand {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Synopsis and flags, shown by `loupe help <command>` and `<command> --help`. */
  readonly help: string;
  /** Runs with the arguments after the command name; answers the exit code. */
  run(args: readonly string[], io: CliIo): Promise<number>;
}
