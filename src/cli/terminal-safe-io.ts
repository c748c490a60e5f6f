import { type CliIo } from './cli-io';
import { escapeControlKeepingLines } from '../log/escape-control';

/**
 * `io` whose output can never drive the terminal: whatever a command prints (a stored value, an
 * error message quoting one), control characters other than newlines show as `\xHH`. The
 * formatters escape each value themselves, newlines included; this is the net under them.
 */
export function terminalSafeIo(io: CliIo): CliIo {
  return {
    env: io.env,
    interactive: io.interactive,
    out: (text) => io.out(escapeControlKeepingLines(text)),
    err: (text) => io.err(escapeControlKeepingLines(text)),
    confirm: (question) => io.confirm(escapeControlKeepingLines(question)),
    ...(io.untilInterrupted === undefined ? {} : { untilInterrupted: () => io.untilInterrupted?.() ?? Promise.resolve() }),
    // A protocol's messages are the command's to encode (JSON escapes its control characters).
    ...(io.stdio === undefined ? {} : { stdio: io.stdio }),
  };
}
