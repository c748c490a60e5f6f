import pino from 'pino';
import pretty from 'pino-pretty';
import { type LogConfig } from './log-config';
import { type Logger } from './logger';
import { REQUEST_LINE_FIELDS } from './request-log-listener';

/** Where the log goes: standard output, or any stream (a test's). */
export type LoggerDestination = NodeJS.WritableStream & { readonly isTTY?: boolean };

/**
 * The logger Loupe creates when the application gives none: pino, writing JSON lines to standard
 * output, or pino-pretty's coloured lines on a terminal (`config.format`). JSON lines go out
 * asynchronously (sonic-boom, no buffering threshold: a line is written on the next turn of the
 * event loop, lines logged meanwhile together): a synchronous write per request line cost a
 * quarter of a prod server's throughput. pino flushes what is pending when the process exits.
 * The pretty format, for a terminal, stays synchronous.
 */
export function createLogger(config: LogConfig, destination: LoggerDestination = process.stdout): Logger {
  const isPretty = config.format === 'pretty' || (config.format === 'auto' && destination.isTTY === true);
  if (!isPretty) return pino({ level: config.level }, destination === process.stdout ? pino.destination({ dest: 1, sync: false }) : destination);
  return pino(
    { level: config.level },
    pretty({
      destination: destination === process.stdout ? 1 : destination,
      sync: true,
      colorize: destination.isTTY === true,
      translateTime: 'HH:MM:ss.l',
      // The request line's message already says all its fields do: one line per request.
      ignore: ['pid', 'hostname', ...REQUEST_LINE_FIELDS].join(','),
    }),
  );
}
