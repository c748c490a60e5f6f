import pino from 'pino';
import pretty from 'pino-pretty';
import { type LogConfig } from './log-config';
import { type Logger } from './logger';
import { REQUEST_LINE_FIELDS } from './request-log-listener';

/** Where the log goes: standard output, or any stream (a test's). */
export type LoggerDestination = NodeJS.WritableStream & { readonly isTTY?: boolean };

/**
 * The logger Loupe creates when the application gives none: pino, writing JSON lines to standard
 * output, or pino-pretty's coloured lines on a terminal (`config.format`). Both write
 * synchronously, so that nothing is lost when the process exits.
 */
export function createLogger(config: LogConfig, destination: LoggerDestination = process.stdout): Logger {
  const isPretty = config.format === 'pretty' || (config.format === 'auto' && destination.isTTY === true);
  if (!isPretty) return pino({ level: config.level }, destination === process.stdout ? pino.destination({ dest: 1, sync: true }) : destination);
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
