import { availableParallelism } from 'node:os';
import { type LocaleOptions } from '../kernel/listeners/locale-listener';
import { LOG_FORMATS, LOGGER_LEVELS, type LogConfig } from '../log/log-config';
import { noRedisWanted, resolveRedisConfig, withoutEmptyUrl, type RedisConfig } from '../redis/redis-config';
import { REMEMBER_ME_COOKIE, type SecurityConfig } from '../security/security-config';
import { type ServerConfig } from '../server/server-config';
import { SESSION_COOKIE, type SessionConfig } from '../session/session-config';
import { type AppEnv, type LoupeConfigInput } from './config-input';
import { invalidGiven, invalidSetting, pickFlag, pickInteger, pickList, pickOneOf, pickString, type Setting } from './config-values';
import { invalid, type Env } from './env-values';

export { type AppEnv } from './config-input';

/** Loupe's configuration, resolved from the options given in code, the environment and the defaults; validated once and frozen. */
export interface Config {
  /** APP_ENV, `dev` by default. */
  readonly appEnv: AppEnv;
  /** Debug mode: detailed error pages (the message, trace and logs of an error). */
  readonly debug: boolean;
  /** The profiler: `X-Debug-Token`, the toolbar, `/_profiler` (PROFILER_ENABLED); as `debug` unless given. */
  readonly profiler: boolean;
  /** A `Server-Timing` header on every response: on with debug, opt-in without (`SERVER_TIMING=1`). */
  readonly serverTiming: boolean;
  /** `currentRequest()` answers inside requests: on with debug or the profiler, opt-in without (`REQUEST_CONTEXT=1`). */
  readonly requestContext: boolean;
  /** Where the server listens, its body limit and its worker processes (HOST, PORT, MAX_BODY_SIZE, WORKERS). */
  readonly server: ServerConfig;
  /**
   * Loupe's Redis; `null` for none (REDIS_URL set empty, or `redis: null` in code): sessions, login
   * throttling and profiles are then kept in this process's memory, and the application runs on one process only.
   */
  readonly redis: RedisConfig | null;
  /** The enabled locales and the default one (APP_LOCALES, APP_DEFAULT_LOCALE). */
  readonly locale: LocaleOptions;
  /** The session's lifetime and cookie (SESSION_LIFETIME). */
  readonly session: SessionConfig;
  /** The secret remember-me cookies are signed with and their lifetime (APP_SECRET, REMEMBER_ME_LIFETIME). */
  readonly security: SecurityConfig;
  /** The terminal log's level and format (LOG_LEVEL, LOG_FORMAT). */
  readonly log: LogConfig;
  /**
   * The environment the configuration was read from, for a plugin that reads settings of its own
   * (the profiler reads its PROFILER_* settings from it, as Symfony's bundles own their part of the configuration).
   */
  readonly env: Readonly<Env>;
}

/** More processes than this on one machine is a typo, not a plan. */
const MAX_WORKERS = 256;

const DEV_SECRET = 'loupe-dev-secret-change-me';

/** Each setting of LoupeConfigInput (but `redis`, see resolveRedisConfig): its path in code and its variable. */
const SETTINGS = {
  appEnv: { path: 'config.appEnv', variable: 'APP_ENV' },
  debug: { path: 'config.debug', variable: 'APP_DEBUG' },
  profiler: { path: 'config.profiler', variable: 'PROFILER_ENABLED' },
  serverTiming: { path: 'config.serverTiming', variable: 'SERVER_TIMING' },
  requestContext: { path: 'config.requestContext', variable: 'REQUEST_CONTEXT' },
  host: { path: 'config.server.host', variable: 'HOST' },
  port: { path: 'config.server.port', variable: 'PORT' },
  maxBodySize: { path: 'config.server.maxBodySize', variable: 'MAX_BODY_SIZE' },
  workers: { path: 'config.server.workers', variable: 'WORKERS' },
  redis: { path: 'config.redis', variable: 'REDIS_URL' },
  enabledLocales: { path: 'config.locale.enabledLocales', variable: 'APP_LOCALES' },
  defaultLocale: { path: 'config.locale.defaultLocale', variable: 'APP_DEFAULT_LOCALE' },
  sessionLifetime: { path: 'config.session.lifetime', variable: 'SESSION_LIFETIME' },
  secret: { path: 'config.security.secret', variable: 'APP_SECRET' },
  rememberMeLifetime: { path: 'config.security.rememberMeLifetime', variable: 'REMEMBER_ME_LIFETIME' },
  logLevel: { path: 'config.log.level', variable: 'LOG_LEVEL' },
  logFormat: { path: 'config.log.format', variable: 'LOG_FORMAT' },
  redact: { path: 'config.log.redact', variable: 'PROFILER_REDACT' },
} as const satisfies Record<string, Setting>;

/** APP_ENV: an empty variable is refused, as it always was, rather than read as `dev`. */
function resolveAppEnv(given: unknown, env: Env): AppEnv {
  const fromCode = given !== undefined;
  const raw = fromCode ? given : (env['APP_ENV'] ?? 'dev');
  if (raw !== 'dev' && raw !== 'prod' && raw !== 'test') throw invalidSetting(SETTINGS.appEnv, fromCode, raw, 'dev, prod or test');
  return raw;
}

function resolveLocale(given: LoupeConfigInput['locale'], env: Env): LocaleOptions {
  const enabledLocales = pickList(given?.enabledLocales, SETTINGS.enabledLocales, env, ['en', 'fr', 'de']);
  if (enabledLocales.length === 0) throw invalidSetting(SETTINGS.enabledLocales, given?.enabledLocales !== undefined, given?.enabledLocales ?? env['APP_LOCALES'], 'at least one locale');
  const defaultLocale = pickString(given?.defaultLocale, SETTINGS.defaultLocale, env, enabledLocales[0] ?? 'en');
  if (!enabledLocales.includes(defaultLocale)) throw invalidSetting(SETTINGS.defaultLocale, given?.defaultLocale !== undefined, defaultLocale, `one of ${enabledLocales.join(', ')}`);
  return Object.freeze({ enabledLocales: Object.freeze([...enabledLocales]), defaultLocale });
}

function resolveSecurity(given: LoupeConfigInput['security'], env: Env, appEnv: AppEnv): SecurityConfig {
  const secret = pickString(given?.secret, SETTINGS.secret, env, DEV_SECRET);
  if (appEnv === 'prod' && (secret === DEV_SECRET || secret.trim() === '')) throw invalidSetting(SETTINGS.secret, given?.secret !== undefined, secret === '' ? '' : '(default)', 'a secret of your own in prod');
  const rememberMeLifetime = pickInteger(given?.rememberMeLifetime, SETTINGS.rememberMeLifetime, env, 7 * 86400, 1, 365 * 86400);
  return Object.freeze({ secret, rememberMeLifetime, rememberMeCookieName: REMEMBER_ME_COOKIE });
}

/** WORKERS: a count, or `auto` for one per core. */
function resolveWorkers(given: unknown, env: Env): number {
  const expected = `an integer from 1 to ${MAX_WORKERS}, or auto`;
  const fromCode = given !== undefined;
  const raw = fromCode ? given : env['WORKERS'];
  if (typeof raw === 'string' && raw.trim().toLowerCase() === 'auto') return availableParallelism();
  try {
    return pickInteger(given, SETTINGS.workers, env, 1, 1, MAX_WORKERS);
  } catch {
    throw invalidSetting(SETTINGS.workers, fromCode, raw ?? '', expected);
  }
}

function resolveServer(given: LoupeConfigInput['server'], env: Env): ServerConfig {
  return Object.freeze({
    host: pickString(given?.host, SETTINGS.host, env, '127.0.0.1'),
    port: pickInteger(given?.port, SETTINGS.port, env, 8000, 0, 65535),
    maxBodySize: pickInteger(given?.maxBodySize, SETTINGS.maxBodySize, env, 1024 * 1024, 0, 1024 * 1024 * 1024),
    workers: resolveWorkers(given?.workers, env),
  });
}

/** `null` in code: none; an object: a Redis, what it leaves out read from the environment; unset: the environment decides. */
function resolveRedis(given: unknown, env: Env): RedisConfig | null {
  if (given === null) return null;
  if (given === undefined) return noRedisWanted(env) ? null : resolveRedisConfig({}, env);
  if (typeof given !== 'object' || Array.isArray(given)) throw invalidGiven(SETTINGS.redis, given, 'an object ({ url, prefix, … }) or null for none');
  return resolveRedisConfig(given, withoutEmptyUrl(env));
}

function resolveLog(given: LoupeConfigInput['log'], env: Env): LogConfig {
  // LOG_FORMAT unset: pretty on a terminal, JSON lines otherwise (see createLogger); the variable
  // names no `auto`, code may. The terminal log redacts the names profiles do (PROFILER_REDACT).
  const formats = given?.format === undefined ? (['json', 'pretty'] as const) : LOG_FORMATS;
  return Object.freeze({
    level: pickOneOf(given?.level, SETTINGS.logLevel, env, LOGGER_LEVELS, 'info'),
    format: pickOneOf(given?.format, SETTINGS.logFormat, env, formats, 'auto'),
    redact: Object.freeze([...pickList(given?.redact, SETTINGS.redact, env, [])]),
  });
}

/**
 * Refuses several workers without Redis: each would keep its own sessions and login counts, so a
 * user logged in by one worker would be unknown to the next request's, and the throttle's
 * allowance multiplied by the workers. Checked by resolveConfig, before serve() starts any worker.
 */
export function checkWorkersShareState(config: Pick<Config, 'server' | 'redis'>): void {
  if (config.redis !== null || config.server.workers <= 1) return;
  throw invalid(
    'WORKERS',
    String(config.server.workers),
    '1 without Redis (REDIS_URL is empty): sessions and login throttling are then kept in each process\'s memory, and a user logged in by one worker would be unknown to the others. Set REDIS_URL to run several workers',
  );
}

/**
 * Resolves and validates the configuration: each option given in code wins over its environment
 * variable, which wins over the default. The environment is `input.env`, else `process.env` (the
 * only place that reads it); `env: {}` reads none. Resolving a Config again gives the same Config.
 */
export function resolveConfig(input: LoupeConfigInput = {}): Config {
  const env = input.env ?? process.env;
  const appEnv = resolveAppEnv(input.appEnv, env);
  const debug = pickFlag(input.debug, SETTINGS.debug, env, appEnv !== 'prod');
  const profiler = pickFlag(input.profiler, SETTINGS.profiler, env, debug);
  const config: Config = Object.freeze({
    appEnv,
    debug,
    profiler,
    // Server-Timing tells any client how long the code took: a debugging aid, off in production
    // even with the profiler (whose pages only allowed clients read).
    serverTiming: pickFlag(input.serverTiming, SETTINGS.serverTiming, env, debug),
    // Needed by the profiler's capture of the application's I/O, and by the request's logs on the debug error page.
    requestContext: pickFlag(input.requestContext, SETTINGS.requestContext, env, debug || profiler),
    server: resolveServer(input.server, env),
    redis: resolveRedis(input.redis, env),
    locale: resolveLocale(input.locale, env),
    session: Object.freeze({ lifetime: pickInteger(input.session?.lifetime, SETTINGS.sessionLifetime, env, 1440 * 60, 1, 365 * 86400), cookieName: SESSION_COOKIE }),
    security: resolveSecurity(input.security, env, appEnv),
    log: resolveLog(input.log, env),
    env: Object.freeze({ ...env }),
  });
  checkWorkersShareState(config);
  return config;
}

/** Reads and validates the configuration from the environment alone (`resolveConfig({ env })`). */
export function readConfig(env: Env = process.env): Config {
  return resolveConfig({ env });
}
