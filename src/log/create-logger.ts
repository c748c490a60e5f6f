import pino from 'pino';
import pretty from 'pino-pretty';
import { type LogConfig } from './log-config';
import { type Logger } from './logger';
import { REQUEST_LINE_FIELDS } from './request-log-listener';

/**
 * Bytes one write to standard output may carry. sonic-boom writes one piece per event-loop turn,
 * and a turn of a loaded server handles dozens of requests: with its default, 16 KiB, a debug server
 * answering 1,000 404s/s logged faster than that and the waiting lines grew without end (200 MiB
 * in 6 minutes): 256 KiB a turn.
 */
const MAX_WRITE_BYTES = 256 << 10;

/**
 * Bytes of log lines held while standard output does not take them (a pipe nobody reads, a slow
 * terminal); past this, lines are dropped, counted and reported, rather than held without bound.
 */
const MAX_BACKLOG_BYTES = 32 << 20;

/** Where the log goes: standard output, or any stream (a test's). */
export type LoggerDestination = NodeJS.WritableStream & { readonly isTTY?: boolean };

/**
 * The logger Loupe creates when the application gives none: pino, writing JSON lines to standard
 * output, or pino-pretty's coloured lines on a terminal (`config.format`). JSON lines go out
 * asynchronously (sonic-boom, no buffering threshold: a line is written on the next turn of the
 * event loop, lines logged meanwhile together): a synchronous write per request line cost a
 * quarter of a prod server's throughput. pino flushes what is pending when the process exits.
 * What waits is bounded (MAX_BACKLOG_BYTES): lines past it are dropped, and a warning says how many.
 * The pretty format, for a terminal, stays synchronous.
 */
export function createLogger(config: LogConfig, destination: LoggerDestination = process.stdout): Logger {
  const isPretty = config.format === 'pretty' || (config.format === 'auto' && destination.isTTY === true);
  if (!isPretty) return destination === process.stdout ? asyncStdoutLogger(config) : pino({ level: config.level }, destination);
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

/**
 * JSON lines to standard output, asynchronously and with a bounded backlog. Dropped lines are
 * counted and reported once a second at most, by a warning that is itself a line of the log.
 */
function asyncStdoutLogger(config: LogConfig): Logger {
  // In buffer mode sonic-boom adds up the lengths of the lines it holds: as text it measured the
  // UTF-8 length of the whole piece it appends to for every line (a backlog of 100 lines, 100 times).
  const stdout = pino.destination({ dest: 1, sync: false, maxWrite: MAX_WRITE_BYTES, maxLength: MAX_BACKLOG_BYTES, contentMode: 'buffer' });
  const lines = {
    write: (line: string): boolean => stdout.write(Buffer.from(line, 'utf8') as unknown as string),
    flush: (callback?: (error?: Error) => void): void => stdout.flush(callback),
  };
  const logger = pino({ level: config.level }, lines);
  let dropped = 0;
  const report = (): void => {
    const droppedLines = dropped;
    dropped = 0;
    logger.warn({ droppedLines }, `${droppedLines} log lines dropped: standard output did not take them (more than ${MAX_BACKLOG_BYTES >> 20} MiB were waiting)`);
  };
  stdout.on('drop', () => {
    if (dropped++ === 0) setTimeout(report, 1_000).unref();
  });
  return logger;
}
