import { type LoggerLevel, type LogFormat } from '../log/log-config';
import { type Env } from './env-values';

/** The environments Loupe knows: `dev` (debug on by default), `prod` (debug off, APP_SECRET required) and `test`. */
export type AppEnv = 'dev' | 'prod' | 'test';

/** Where the server listens and what it accepts, given in code; each key wins over its variable. */
export interface ServerConfigInput {
  /** HOST: the address to listen on. */
  readonly host?: string;
  /** PORT: 0 to 65535, `0` for any free port. */
  readonly port?: number;
  /** MAX_BODY_SIZE: the largest accepted request body, in bytes. */
  readonly maxBodySize?: number;
  /** WORKERS: server processes sharing the port, 1 to 256, or `auto` for one per core. */
  readonly workers?: number | 'auto';
}

/** Loupe's Redis, given in code; what is left out comes from the environment, then the defaults. */
export interface RedisConfigInput {
  /** REDIS_URL: `redis://…`, `rediss://…` or `redis+cluster://host:port,…`. */
  readonly url?: string;
  /** REDIS_PREFIX: the prefix of every key Loupe writes. */
  readonly prefix?: string;
  /** PROFILER_REDIS_GROUPS: the groups the profile keys are split into, 1 to 1024. */
  readonly profileGroups?: number;
  /** REDIS_COMMAND_TIMEOUT_MS: 50 to 60000. */
  readonly commandTimeoutMs?: number;
  /** REDIS_CONNECT_TIMEOUT_MS: 100 to 60000. */
  readonly connectTimeoutMs?: number;
}

/** The locales, given in code. */
export interface LocaleConfigInput {
  /** APP_LOCALES: the enabled locales, at least one. */
  readonly enabledLocales?: readonly string[];
  /** APP_DEFAULT_LOCALE: one of the enabled locales; the first of them by default. */
  readonly defaultLocale?: string;
}

/** Sessions, given in code. */
export interface SessionConfigInput {
  /** SESSION_LIFETIME: seconds a session lives without use. */
  readonly lifetime?: number;
}

/** Remember-me cookies, given in code. */
export interface SecurityConfigInput {
  /** APP_SECRET: signs remember-me cookies; required (not the development default) in `prod`. */
  readonly secret?: string;
  /** REMEMBER_ME_LIFETIME: seconds a remember-me cookie stays valid. */
  readonly rememberMeLifetime?: number;
}

/** The terminal log, given in code. */
export interface LogConfigInput {
  /** LOG_LEVEL. */
  readonly level?: LoggerLevel;
  /** LOG_FORMAT; `auto` (the default): pretty on a terminal, JSON lines otherwise. */
  readonly format?: LogFormat;
  /** PROFILER_REDACT: more names whose values the log (and the profiles) never show. */
  readonly redact?: readonly string[];
}

/**
 * Loupe's configuration as an application gives it in code, every key optional. An option given
 * here wins over the environment, which wins over the default; a value given here is checked by
 * the same rules as its variable, and an invalid one names its path (`config.server.port`). A
 * `Config` that readConfig or resolveConfig made is one too: resolved again, it gives itself.
 */
export interface LoupeConfigInput {
  /** APP_ENV. */
  readonly appEnv?: AppEnv;
  /** APP_DEBUG: detailed error pages; on except in `prod`. */
  readonly debug?: boolean;
  /** PROFILER_ENABLED: the profiler, its toolbar and `X-Debug-Token`; as `debug` by default. */
  readonly profiler?: boolean;
  /** SERVER_TIMING: a `Server-Timing` header on every response; as `debug` by default. */
  readonly serverTiming?: boolean;
  /** REQUEST_CONTEXT: `currentRequest()` and the capture of the application's I/O; on with debug or the profiler. */
  readonly requestContext?: boolean;
  /** HOST, PORT, MAX_BODY_SIZE, WORKERS. */
  readonly server?: ServerConfigInput;
  /** Loupe's Redis; `null` for none (sessions, login throttling and profiles in this process's memory). */
  readonly redis?: RedisConfigInput | null;
  /** APP_LOCALES, APP_DEFAULT_LOCALE. */
  readonly locale?: LocaleConfigInput;
  /** SESSION_LIFETIME. */
  readonly session?: SessionConfigInput;
  /** APP_SECRET, REMEMBER_ME_LIFETIME. */
  readonly security?: SecurityConfigInput;
  /** LOG_LEVEL, LOG_FORMAT, PROFILER_REDACT. */
  readonly log?: LogConfigInput;
  /**
   * The environment the options not given here are read from; `process.env` by default. `{}` reads
   * none (a hermetic test): what is not given here is the default. The profiler reads its own
   * PROFILER_* settings from it too.
   */
  readonly env?: Env;
}
