import { type Readable, type Writable } from 'node:stream';

/** Everything a command touches outside Redis, so that commands never reach for `process`. */
export interface CliIo {
  /** The environment `readConfig` reads REDIS_URL and REDIS_PREFIX from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Writes to standard output; the text carries its own newlines. */
  out(text: string): void;
  /** Writes to standard error. */
  err(text: string): void;
  /** The terminal's width when standard output is one; views fit their bars to it. */
  readonly columns?: number;
  /** Whether a person can answer a question: standard input is a terminal. */
  readonly interactive: boolean;
  /** Asks a yes/no question on the terminal; only `y` or `yes` is a yes. */
  confirm(question: string): Promise<boolean>;
  /** Resolves when the user interrupts (Ctrl-C, SIGINT) or the process is asked to stop (SIGTERM); commands that run until then wait on it. */
  untilInterrupted?(): Promise<void>;
  /** Standard input and output as streams, for a command that speaks a protocol on them (`loupe mcp`) rather than printing text. */
  readonly stdio?: { readonly input: Readable; readonly output: Writable };
}
