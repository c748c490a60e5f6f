/** pino's levels, from the most to the least severe; `silent` logs nothing. */
export const LOGGER_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One of LOGGER_LEVELS: the least severe level the terminal log writes. */
export type LoggerLevel = (typeof LOGGER_LEVELS)[number];

/** `auto`: pretty on a terminal, JSON lines otherwise (a pipe, a file, a container's log). */
export const LOG_FORMATS = ['json', 'pretty', 'auto'] as const;

/** One of LOG_FORMATS. */
export type LogFormat = (typeof LOG_FORMATS)[number];

/** The terminal log: `LOG_LEVEL` and `LOG_FORMAT`. */
export interface LogConfig {
  /** The least severe level written (`LOG_LEVEL`, `info` by default). */
  readonly level: LoggerLevel;
  /** How records are written (`LOG_FORMAT`, `auto` by default). */
  readonly format: LogFormat;
  /** Name patterns whose fields the log writes as `******` besides the built-in ones (see SecretNames), e.g. `ssn`. */
  readonly redact?: readonly string[];
}
