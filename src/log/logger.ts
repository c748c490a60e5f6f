/** One level's method: a message, or an object of fields (`err` for an error) and a message. */
export interface LogMethod {
  /** Logs `fields` as the record's fields, with `message` when given. */
  (fields: object, message?: string): void;
  /** Logs `message` alone. */
  (message: string): void;
}

/**
 * What Loupe writes its terminal log through: a pino logger fits, as does any logger with
 * pino's methods. `createLogger` makes the default one from the configuration.
 */
export interface Logger {
  /** Whether a record at `level` (a pino level name) would be written: lets a caller skip building costly fields. */
  isLevelEnabled(level: string): boolean;
  /** Logs at `fatal`: the process cannot go on. */
  fatal: LogMethod;
  /** Logs at `error`: an operation failed. */
  error: LogMethod;
  /** Logs at `warn`: something is wrong but was handled. */
  warn: LogMethod;
  /** Logs at `info`: the process's life, such as the listening line. */
  info: LogMethod;
  /** Logs at `debug`: detail for development. */
  debug: LogMethod;
  /** Logs at `trace`: the finest detail. */
  trace: LogMethod;
  /** A logger adding `bindings` to each record, at `options.level` when given. */
  child(bindings: Record<string, unknown>, options?: { level?: string }): Logger;
}
