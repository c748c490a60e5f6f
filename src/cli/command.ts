import { type CliIo } from './cli-io';
import { type PanelDefinition } from '../profiler/contract';
import { type CommandArgs, type OptionSpecs } from './parse-command-args';

/** One `loupe` command: its name, what `loupe help` says about it, and how it runs. */
export interface CliCommand {
  /** What is typed after `loupe`, e.g. `profiler:list`; Loupe's own command wins over a plugin's of the same name. */
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** Synopsis and flags, shown by `loupe help <command>` and `<command> --help`. */
  readonly help: string;
  /** The command's own flags; the global ones (--redis-url, --prefix, --help) come on top. */
  readonly options: OptionSpecs;
  /** Runs with the parsed arguments (`--help` is answered before); answers the exit code. */
  run(args: CommandArgs, io: CliIo, context: CliContext): Promise<number>;
}

/** What the application's CLI knows beyond Loupe's own: its plugins' panels (profiler:show prints their text). */
export interface CliContext {
  /** Every plugin's panels, in the order the plugins were given. */
  readonly panels: readonly PanelDefinition[];
}
