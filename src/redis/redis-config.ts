import { integer, invalid, type Env } from '../config/env-values';

/** How long Loupe waits for Redis: every command, and the connection at start. */
export interface RedisTimeouts {
  /** Milliseconds a command may take before it fails (ioredis `commandTimeout`). */
  readonly commandTimeoutMs: number;
  /** Milliseconds a new connection may take to answer, handshake included; bounds the start. */
  readonly connectTimeoutMs: number;
}

/** Where Loupe's Redis is, how its keys are named, and how long Loupe waits for it. */
export interface RedisConfig extends RedisTimeouts {
  readonly url: string;
  /** Prefix of every Redis key Loupe writes, so several apps (or test runs) can share one Redis. */
  readonly prefix: string;
}

export const REDIS_TIMEOUT_DEFAULTS: RedisTimeouts = Object.freeze({ commandTimeoutMs: 1_000, connectTimeoutMs: 3_000 });

/** REDIS_URL, REDIS_PREFIX and the timeouts: all the CLI needs. */
export function readRedisConfig(env: Env): RedisConfig {
  const url = env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  if (!/^rediss?:\/\//.test(url)) throw invalid('REDIS_URL', url, 'a redis:// or rediss:// URL');
  return Object.freeze({
    url,
    prefix: env['REDIS_PREFIX'] ?? 'loupe:',
    commandTimeoutMs: integer(env, 'REDIS_COMMAND_TIMEOUT_MS', REDIS_TIMEOUT_DEFAULTS.commandTimeoutMs, 50, 60_000),
    connectTimeoutMs: integer(env, 'REDIS_CONNECT_TIMEOUT_MS', REDIS_TIMEOUT_DEFAULTS.connectTimeoutMs, 100, 60_000),
  });
}
