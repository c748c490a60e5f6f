/** One level's method: a message, or an object of fields (`err` for an error) and a message. */
export interface LogMethod {
  (fields: object, message?: string): void;
  (message: string): void;
}

/**
 * What Loupe writes its terminal log through: a pino logger fits, as does any logger with
 * pino's methods. `createLogger` makes the default one from the configuration.
 */
export interface Logger {
  isLevelEnabled(level: string): boolean;
  fatal: LogMethod;
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  trace: LogMethod;
  /** A logger adding `bindings` to each record, at `options.level` when given. */
  child(bindings: Record<string, unknown>, options?: { level?: string }): Logger;
}
