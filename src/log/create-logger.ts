import pino, { type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { RedactionPolicy } from '../profiler';
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

/** What replaces a secret field, as in profiles (the log reaches the profiler through its entry only). */
const REDACTED = '******';

/** Deeper than the fields of any log line; only guards against a cycle. */
const MAX_FIELD_DEPTH = 8;

/** The request line's own fields, kept: its `token` is the profile's X-Debug-Token, which a profile shows too. */
const REQUEST_LINE = new Set<string>(REQUEST_LINE_FIELDS);

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * `value` with the fields named like secrets replaced, at any depth of plain objects and arrays,
 * copied only where something changes. Anything else (an Error, a Buffer, a class's instance) is
 * left as it is, to pino's serializers: a line of primitive fields is looked at key by key only.
 */
function redactFields(value: unknown, policy: RedactionPolicy, depth: number, kept?: ReadonlySet<string>): unknown {
  if (depth >= MAX_FIELD_DEPTH) return value;
  if (Array.isArray(value)) {
    let items: unknown[] | null = null;
    value.forEach((item: unknown, index) => {
      const redacted = redactFields(item, policy, depth + 1);
      if (redacted !== item) (items ??= [...value])[index] = redacted;
    });
    return items ?? value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | null = null;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = value[key];
    const redacted = kept?.has(key) === true ? field : policy.isSecretName(key) ? REDACTED : redactFields(field, policy, depth + 1);
    if (redacted !== field) (copy ??= { ...value })[key] = redacted;
  }
  return copy ?? value;
}

/**
 * pino's options for `config`: its level, and the fields of each line named like secrets replaced
 * as in profiles. A child logger's bindings are written once, when it is made, past this hook.
 */
function loggerOptions(config: LogConfig): LoggerOptions {
  const policy = new RedactionPolicy({ names: config.redact ?? [] });
  const redact = (fields: Record<string, unknown>): Record<string, unknown> => {
    const isRequestLine = typeof fields['durationMs'] === 'number' && typeof fields['method'] === 'string';
    return redactFields(fields, policy, 0, isRequestLine ? REQUEST_LINE : undefined) as Record<string, unknown>;
  };
  return { level: config.level, formatters: { log: redact } };
}

/** Where the log goes: standard output, or any stream (a test's). */
export type LoggerDestination = NodeJS.WritableStream & { readonly isTTY?: boolean };

/**
 * The logger Loupe creates when the application gives none: pino, writing JSON lines to standard
 * output, or pino-pretty's coloured lines on a terminal (`config.format`). JSON lines go out
 * asynchronously (sonic-boom, no buffering threshold: a line is written on the next turn of the
 * event loop, lines logged meanwhile together): a synchronous write per request line cost a
 * quarter of a prod server's throughput. pino flushes what is pending when the process exits.
 * What waits is bounded (MAX_BACKLOG_BYTES): lines past it are dropped, and a warning says how many.
 * The pretty format, for a terminal, stays synchronous. Fields named like secrets (`password`,
 * `apiToken`, and `config.redact`) are written as `******` at any depth, as profiles show them.
 */
export function createLogger(config: LogConfig, destination: LoggerDestination = process.stdout): Logger {
  const isPretty = config.format === 'pretty' || (config.format === 'auto' && destination.isTTY === true);
  if (!isPretty) return destination === process.stdout ? asyncStdoutLogger(config) : pino(loggerOptions(config), destination);
  return pino(
    loggerOptions(config),
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
  const logger = pino(loggerOptions(config), lines);
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
