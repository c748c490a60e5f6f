import { LoupeError } from '../errors/loupe-error';

export type AppEnv = 'dev' | 'prod' | 'test';

/** Everything Loupe reads from the environment, validated once at start and frozen. */
export interface Config {
  readonly host: string;
  readonly port: number;
  readonly redisUrl: string;
  /** Prefix of every Redis key Loupe writes, so several apps (or test runs) can share one Redis. */
  readonly redisPrefix: string;
  readonly appEnv: AppEnv;
  readonly debug: boolean;
  /** Largest accepted request body, in bytes. */
  readonly maxBodySize: number;
  readonly locales: readonly string[];
  readonly defaultLocale: string;
  /** Signs remember-me cookies. */
  readonly secret: string;
  /** Seconds a session lives in Redis without use. */
  readonly sessionLifetime: number;
  /** Seconds a remember-me cookie stays valid. */
  readonly rememberMeLifetime: number;
  /** Seconds a stored profile lives. */
  readonly profilerLifetime: number;
  /** Most profiles kept; older ones are trimmed. */
  readonly profilerMaxProfiles: number;
  /** Client address ranges (CIDR) allowed to read the profiler. */
  readonly profilerAllowedIps: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

function invalid(name: string, value: string, expected: string): LoupeError {
  return new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid ${name} "${value}": expected ${expected}.`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw invalid(name, raw, `an integer from ${min} to ${max}`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  throw invalid(name, raw, '0 or 1');
}

function list(env: Env, name: string, fallback: readonly string[]): readonly string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  return raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

const DEV_SECRET = 'loupe-dev-secret-change-me';

/** Reads and validates the configuration; the only place that reads `process.env`. */
export function readConfig(env: Env = process.env): Config {
  const appEnv = env['APP_ENV'] ?? 'dev';
  if (appEnv !== 'dev' && appEnv !== 'prod' && appEnv !== 'test') throw invalid('APP_ENV', appEnv, 'dev, prod or test');
  const debug = flag(env, 'APP_DEBUG', appEnv !== 'prod');
  const locales = list(env, 'APP_LOCALES', ['en', 'fr', 'de']);
  const defaultLocale = env['APP_DEFAULT_LOCALE'] ?? locales[0] ?? 'en';
  if (!locales.includes(defaultLocale)) throw invalid('APP_DEFAULT_LOCALE', defaultLocale, `one of ${locales.join(', ')}`);
  const secret = env['APP_SECRET'] ?? DEV_SECRET;
  if (appEnv === 'prod' && (secret === DEV_SECRET || secret.trim() === '')) throw invalid('APP_SECRET', secret === '' ? '' : '(default)', 'a secret of your own in prod');
  const redisUrl = env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  if (!/^rediss?:\/\//.test(redisUrl)) throw invalid('REDIS_URL', redisUrl, 'a redis:// or rediss:// URL');
  return Object.freeze({
    host: env['HOST'] ?? '127.0.0.1',
    port: integer(env, 'PORT', 8000, 0, 65535),
    redisUrl,
    redisPrefix: env['REDIS_PREFIX'] ?? 'loupe:',
    appEnv,
    debug,
    maxBodySize: integer(env, 'MAX_BODY_SIZE', 1024 * 1024, 0, 1024 * 1024 * 1024),
    locales: Object.freeze([...locales]),
    defaultLocale,
    secret,
    sessionLifetime: integer(env, 'SESSION_LIFETIME', 1440 * 60, 1, 365 * 86400),
    rememberMeLifetime: integer(env, 'REMEMBER_ME_LIFETIME', 7 * 86400, 1, 365 * 86400),
    profilerLifetime: integer(env, 'PROFILER_LIFETIME', 86400, 1, 365 * 86400),
    // Capped well below the 16.7 million tokens, so a token is reused only once its old profile is gone.
    profilerMaxProfiles: integer(env, 'PROFILER_MAX_PROFILES', 50_000, 1, 10_000_000),
    profilerAllowedIps: Object.freeze([...list(env, 'PROFILER_ALLOWED_IPS', ['127.0.0.0/8', '::1/128'])]),
  });
}
