import { invalid, type Env } from '../config/env-values';

/** Where Loupe's Redis is and how its keys are named. */
export interface RedisConfig {
  readonly url: string;
  /** Prefix of every Redis key Loupe writes, so several apps (or test runs) can share one Redis. */
  readonly prefix: string;
}

/** REDIS_URL and REDIS_PREFIX: all the CLI needs. */
export function readRedisConfig(env: Env): RedisConfig {
  const url = env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  if (!/^rediss?:\/\//.test(url)) throw invalid('REDIS_URL', url, 'a redis:// or rediss:// URL');
  return Object.freeze({ url, prefix: env['REDIS_PREFIX'] ?? 'loupe:' });
}
