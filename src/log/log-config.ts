/** pino's levels, from the most to the least severe; `silent` logs nothing. */
export const LOGGER_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type LoggerLevel = (typeof LOGGER_LEVELS)[number];

/** `auto`: pretty on a terminal, JSON lines otherwise (a pipe, a file, a container's log). */
export const LOG_FORMATS = ['json', 'pretty', 'auto'] as const;

export type LogFormat = (typeof LOG_FORMATS)[number];

/** The terminal log: `LOG_LEVEL` and `LOG_FORMAT`. */
export interface LogConfig {
  readonly level: LoggerLevel;
  readonly format: LogFormat;
  /** Name patterns whose fields the log writes as `******` besides the built-in ones (see SecretNames), e.g. `ssn`. */
  readonly redact?: readonly string[];
}
