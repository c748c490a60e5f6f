import { availableParallelism } from 'node:os';
import { type LocaleOptions } from '../kernel/listeners/locale-listener';
import { LOGGER_LEVELS, type LogConfig } from '../log/log-config';
import { noRedisWanted, readRedisConfig, type RedisConfig } from '../redis/redis-config';
import { REMEMBER_ME_COOKIE, type SecurityConfig } from '../security/security-config';
import { type ServerConfig } from '../server/server-config';
import { SESSION_COOKIE, type SessionConfig } from '../session/session-config';
import { flag, integer, invalid, list, oneOf, type Env } from './env-values';

/** The environment the application runs in (APP_ENV): debug is on by default except in `prod`, which also requires an APP_SECRET of its own. */
export type AppEnv = 'dev' | 'prod' | 'test';

/** Everything Loupe reads from the environment, one part per module, validated once and frozen. */
export interface Config {
  /** APP_ENV, `dev` by default. */
  readonly appEnv: AppEnv;
  /** Debug mode: the profiler, detailed error pages. */
  readonly debug: boolean;
  /** A `Server-Timing` header on every response: on with debug, opt-in without (`SERVER_TIMING=1`). */
  readonly serverTiming: boolean;
  /** `currentRequest()` answers inside requests: on with debug, opt-in without (`REQUEST_CONTEXT=1`). */
  readonly requestContext: boolean;
  /** Where the server listens, its body limit and its worker processes (HOST, PORT, MAX_BODY_SIZE, WORKERS). */
  readonly server: ServerConfig;
  /**
   * Loupe's Redis; `null` for none (REDIS_URL set empty): sessions, login throttling and profiles
   * are then kept in this process's memory, and the application runs on one process only.
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

function readLocale(env: Env): LocaleOptions {
  const enabledLocales = list(env, 'APP_LOCALES', ['en', 'fr', 'de']);
  const defaultLocale = env['APP_DEFAULT_LOCALE'] ?? enabledLocales[0] ?? 'en';
  if (!enabledLocales.includes(defaultLocale)) throw invalid('APP_DEFAULT_LOCALE', defaultLocale, `one of ${enabledLocales.join(', ')}`);
  return Object.freeze({ enabledLocales: Object.freeze([...enabledLocales]), defaultLocale });
}

function readSecurity(env: Env, appEnv: AppEnv): SecurityConfig {
  const secret = env['APP_SECRET'] ?? DEV_SECRET;
  if (appEnv === 'prod' && (secret === DEV_SECRET || secret.trim() === '')) throw invalid('APP_SECRET', secret === '' ? '' : '(default)', 'a secret of your own in prod');
  return Object.freeze({ secret, rememberMeLifetime: integer(env, 'REMEMBER_ME_LIFETIME', 7 * 86400, 1, 365 * 86400), rememberMeCookieName: REMEMBER_ME_COOKIE });
}

/** WORKERS: a count, or `auto` for one per core. */
function readWorkers(env: Env): number {
  const raw = env['WORKERS'];
  if (raw?.trim().toLowerCase() === 'auto') return availableParallelism();
  try {
    return integer(env, 'WORKERS', 1, 1, MAX_WORKERS);
  } catch {
    throw invalid('WORKERS', raw ?? '', `an integer from 1 to ${MAX_WORKERS}, or auto`);
  }
}

/**
 * Refuses several workers without Redis: each would keep its own sessions and login counts, so a
 * user logged in by one worker would be unknown to the next request's, and the throttle's
 * allowance multiplied by the workers. Checked by readConfig, and by serve() for a configuration
 * made in code.
 */
export function checkWorkersShareState(config: Pick<Config, 'server' | 'redis'>): void {
  if (config.redis !== null || config.server.workers <= 1) return;
  throw invalid(
    'WORKERS',
    String(config.server.workers),
    '1 without Redis (REDIS_URL is empty): sessions and login throttling are then kept in each process\'s memory, and a user logged in by one worker would be unknown to the others. Set REDIS_URL to run several workers',
  );
}

/** Reads and validates the configuration; the only place that reads `process.env`. */
export function readConfig(env: Env = process.env): Config {
  const appEnv = env['APP_ENV'] ?? 'dev';
  if (appEnv !== 'dev' && appEnv !== 'prod' && appEnv !== 'test') throw invalid('APP_ENV', appEnv, 'dev, prod or test');
  const debug = flag(env, 'APP_DEBUG', appEnv !== 'prod');
  const config: Config = Object.freeze({
    appEnv,
    debug,
    serverTiming: flag(env, 'SERVER_TIMING', debug),
    requestContext: flag(env, 'REQUEST_CONTEXT', debug),
    server: Object.freeze({
      host: env['HOST'] ?? '127.0.0.1',
      port: integer(env, 'PORT', 8000, 0, 65535),
      maxBodySize: integer(env, 'MAX_BODY_SIZE', 1024 * 1024, 0, 1024 * 1024 * 1024),
      workers: readWorkers(env),
    }),
    redis: noRedisWanted(env) ? null : readRedisConfig(env),
    locale: readLocale(env),
    session: Object.freeze({ lifetime: integer(env, 'SESSION_LIFETIME', 1440 * 60, 1, 365 * 86400), cookieName: SESSION_COOKIE }),
    security: readSecurity(env, appEnv),
    // LOG_FORMAT unset: pretty on a terminal, JSON lines otherwise (see createLogger). The terminal
    // log redacts the names profiles do (PROFILER_REDACT; the patterns are checked when the log's redaction is made).
    log: Object.freeze({
      level: oneOf(env, 'LOG_LEVEL', LOGGER_LEVELS, 'info'),
      format: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'auto'),
      redact: Object.freeze([...list(env, 'PROFILER_REDACT', [])]),
    }),
    env: Object.freeze({ ...env }),
  });
  checkWorkersShareState(config);
  return config;
}
