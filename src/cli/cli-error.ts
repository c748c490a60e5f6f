/** How the process ends: 1 for a failure, 2 for a command line the CLI cannot run. */
export type CliExitCode = 1 | 2;

/**
 * An error the CLI reports as one message and an exit code, without a stack trace. It is not a
 * LoupeError: it never reaches HTTP, and its "code" is the process exit code.
 */
export class CliError extends Error {
  readonly exitCode: CliExitCode;

  constructor(exitCode: CliExitCode, message: string, options: { cause?: unknown } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.exitCode = exitCode;
  }

  override get name(): string {
    return this.constructor.name;
  }

  /** A command line that cannot run: the CLI answers with usage and exit code 2. */
  static usage(message: string): CliError {
    return new CliError(2, message);
  }
}
