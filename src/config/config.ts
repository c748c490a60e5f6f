import { availableParallelism } from 'node:os';
import { type LocaleOptions } from '../kernel/listeners/locale-listener';
import { LOGGER_LEVELS, type LogConfig } from '../log/log-config';
import { MIN_PROFILE_BYTES } from '../profiler/profile-budget';
import { CAPTURE_KINDS, PROFILER_DEFAULTS, type CaptureKind, type ProfilerConfig } from '../profiler/profiler-config';
import { namePatternProblem } from '../profiler/secret-names';
import { readRedisConfig, type RedisConfig } from '../redis/redis-config';
import { REMEMBER_ME_COOKIE, type SecurityConfig } from '../security/security-config';
import { type ServerConfig } from '../server/server-config';
import { SESSION_COOKIE, type SessionConfig } from '../session/session-config';
import { flag, fraction, integer, invalid, list, oneOf, type Env } from './env-values';

export type AppEnv = 'dev' | 'prod' | 'test';

/** Everything Loupe reads from the environment, one part per module, validated once and frozen. */
export interface Config {
  readonly appEnv: AppEnv;
  /** Debug mode: the profiler, detailed error pages. */
  readonly debug: boolean;
  /** A `Server-Timing` header on every response: on with debug, opt-in without (`SERVER_TIMING=1`). */
  readonly serverTiming: boolean;
  /** `currentRequest()` answers inside requests: on with debug, opt-in without (`REQUEST_CONTEXT=1`). */
  readonly requestContext: boolean;
  readonly server: ServerConfig;
  readonly redis: RedisConfig;
  readonly locale: LocaleOptions;
  readonly session: SessionConfig;
  readonly security: SecurityConfig;
  readonly profiler: ProfilerConfig;
  readonly log: LogConfig;
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

function readRedactNames(env: Env): readonly string[] {
  const names = list(env, 'PROFILER_REDACT', PROFILER_DEFAULTS.redact);
  for (const name of names) {
    const problem = namePatternProblem(name);
    if (problem !== null) throw invalid('PROFILER_REDACT', name, problem);
  }
  return Object.freeze([...names]);
}

function readCapture(env: Env): readonly CaptureKind[] {
  const raw = env['PROFILER_CAPTURE'];
  if (raw !== undefined && ['none', 'off', '0'].includes(raw.trim().toLowerCase())) return Object.freeze([]);
  const kinds = list(env, 'PROFILER_CAPTURE', PROFILER_DEFAULTS.capture);
  for (const kind of kinds) {
    if (!(CAPTURE_KINDS as readonly string[]).includes(kind)) throw invalid('PROFILER_CAPTURE', kind, `a comma-separated list of ${CAPTURE_KINDS.join(', ')}, or none`);
  }
  return Object.freeze([...new Set(kinds as readonly CaptureKind[])]);
}

function readIde(env: Env): string | null {
  const ide = env['PROFILER_IDE'] ?? env['LOUPE_IDE'];
  if (ide === undefined || ide.trim() === '') return null;
  if (!ide.includes('%f')) throw invalid('PROFILER_IDE', ide, 'a link template with %f (the file) and usually %l (the line), e.g. vscode://file/%f:%l');
  return ide.trim();
}

function readProfiler(env: Env): ProfilerConfig {
  // A Redis string holds at most 512 MiB.
  const maxProfileBytes = integer(env, 'PROFILER_MAX_PROFILE_BYTES', PROFILER_DEFAULTS.maxProfileBytes, MIN_PROFILE_BYTES, 512 * 1024 * 1024);
  const maxBytes = integer(env, 'PROFILER_MAX_BYTES', PROFILER_DEFAULTS.maxBytes, 1024 * 1024, Number.MAX_SAFE_INTEGER);
  // Each profile would otherwise push every other one out, itself included.
  if (maxBytes < maxProfileBytes) throw invalid('PROFILER_MAX_BYTES', String(maxBytes), `at least PROFILER_MAX_PROFILE_BYTES (${maxProfileBytes})`);
  return Object.freeze({
    lifetime: integer(env, 'PROFILER_LIFETIME', PROFILER_DEFAULTS.lifetime, 1, 365 * 86400),
    // Capped well below the 16.7 million tokens, so a token is reused only once its old profile is gone.
    maxProfiles: integer(env, 'PROFILER_MAX_PROFILES', PROFILER_DEFAULTS.maxProfiles, 1, 10_000_000),
    maxProfileBytes,
    maxBytes,
    allowedIps: Object.freeze([...list(env, 'PROFILER_ALLOWED_IPS', PROFILER_DEFAULTS.allowedIps)]),
    redact: readRedactNames(env),
    cookieAllowList: Object.freeze([...list(env, 'PROFILER_COOKIE_ALLOWLIST', PROFILER_DEFAULTS.cookieAllowList)]),
    sample: fraction(env, 'PROFILER_SAMPLE', PROFILER_DEFAULTS.sample),
    slowMs: integer(env, 'PROFILER_SLOW_MS', PROFILER_DEFAULTS.slowMs, 0, 3_600_000),
    capture: readCapture(env),
    maxEntries: integer(env, 'PROFILER_MAX_ENTRIES', PROFILER_DEFAULTS.maxEntries, 0, 100_000),
    slowCallMs: integer(env, 'PROFILER_SLOW_CALL_MS', PROFILER_DEFAULTS.slowCallMs, 0, 3_600_000),
    ide: readIde(env),
  });
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

/** Reads and validates the configuration; the only place that reads `process.env`. */
export function readConfig(env: Env = process.env): Config {
  const appEnv = env['APP_ENV'] ?? 'dev';
  if (appEnv !== 'dev' && appEnv !== 'prod' && appEnv !== 'test') throw invalid('APP_ENV', appEnv, 'dev, prod or test');
  const debug = flag(env, 'APP_DEBUG', appEnv !== 'prod');
  return Object.freeze({
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
    redis: readRedisConfig(env),
    locale: readLocale(env),
    session: Object.freeze({ lifetime: integer(env, 'SESSION_LIFETIME', 1440 * 60, 1, 365 * 86400), cookieName: SESSION_COOKIE }),
    security: readSecurity(env, appEnv),
    profiler: readProfiler(env),
    // LOG_FORMAT unset: pretty on a terminal, JSON lines otherwise (see createLogger).
    log: Object.freeze({ level: oneOf(env, 'LOG_LEVEL', LOGGER_LEVELS, 'info'), format: oneOf(env, 'LOG_FORMAT', ['json', 'pretty'] as const, 'auto') }),
  });
}
