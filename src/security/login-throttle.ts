import { createHash } from 'node:crypto';
import { type RedisClient } from '../redis/redis-client';
import { RateLimiterMemory, RateLimiterRedis, RLWrapperTimeouts, type RateLimiterRes } from 'rate-limiter-flexible';
import { LoupeError } from '../errors/loupe-error';

export interface LoginThrottleOptions {
  /** Failed logins allowed per client IP and identifier in one interval; the IP as a whole gets five times as many. */
  readonly maxAttempts?: number;
  /** Seconds from an IP's (or IP and identifier's) first failure until its count starts again. */
  readonly intervalSeconds?: number;
  /** Milliseconds a Redis call may take before the in-memory limiter answers instead. */
  readonly redisTimeoutMs?: number;
}

/** Whether a login may be attempted now, and if not, in how many seconds. */
export type LoginThrottleDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Symfony's DefaultLoginRateLimiter gives the IP-wide limiter five times the per-user limit. */
const IP_FACTOR = 5;

/** A limiter kept in Redis, answered from process memory when Redis fails or is too slow. */
interface InsuredLimiter {
  readonly limiter: RLWrapperTimeouts;
  readonly memory: RateLimiterMemory;
  readonly maxAttempts: number;
}

/**
 * Failed-login throttling as Symfony's login throttling: one fixed-window limiter per client IP
 * and identifier, and one per client IP at five times that, so that one IP can neither guess one
 * password nor spray a few guesses over many users. Counts live in Redis, so processes sharing it
 * throttle together; when Redis errs, is not connected or does not answer within the timeout, an
 * in-memory limiter answers instead (rate-limiter-flexible's `insuranceLimiter`), so a Redis fault
 * never turns a login into a 500. The client is the caller's, and should be connected: calls made
 * while it is not ready go to memory at once.
 *
 * Keys: `<prefix>login-throttle:ip:<ip>` and `<prefix>login-throttle:ip-user:<ip>:<sha256>`. The
 * identifier is hashed, as Symfony 6.4 does, so that keys are bounded and hold no user names.
 */
export class LoginThrottle {
  readonly #perIp: InsuredLimiter;
  readonly #perUser: InsuredLimiter;
  readonly #intervalSeconds: number;

  constructor(redis: RedisClient, prefix: string, options: LoginThrottleOptions = {}) {
    const maxAttempts = positiveInteger('maxAttempts', options.maxAttempts ?? 5);
    this.#intervalSeconds = positiveInteger('intervalSeconds', options.intervalSeconds ?? 60);
    const timeoutMs = positiveInteger('redisTimeoutMs', options.redisTimeoutMs ?? 500);
    const limiter = (name: string, points: number): InsuredLimiter =>
      insuredLimiter(redis, `${prefix}login-throttle:${name}`, points, this.#intervalSeconds, timeoutMs);
    this.#perIp = limiter('ip', maxAttempts * IP_FACTOR);
    this.#perUser = limiter('ip-user', maxAttempts);
  }

  /** Whether `identifier` may try to log in from `ip` now; consumes nothing. */
  async check(ip: string, identifier: string): Promise<LoginThrottleDecision> {
    const [perIp, perUser] = await Promise.all([this.#perIp.limiter.get(ip), this.#perUser.limiter.get(userKey(ip, identifier))]);
    let retryAfterMs = 0;
    if (isExhausted(perIp, this.#perIp)) retryAfterMs = Math.max(retryAfterMs, this.#msBeforeNext(perIp));
    if (isExhausted(perUser, this.#perUser)) retryAfterMs = Math.max(retryAfterMs, this.#msBeforeNext(perUser));
    if (retryAfterMs === 0) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.min(this.#intervalSeconds, Math.max(1, Math.ceil(retryAfterMs / 1000))) };
  }

  /** Counts a failed login of `identifier` from `ip` against both limiters. */
  async recordFailure(ip: string, identifier: string): Promise<void> {
    await Promise.all([this.#perIp.limiter.penalty(ip), this.#perUser.limiter.penalty(userKey(ip, identifier))]);
  }

  /**
   * Forgets the failures of `identifier` from `ip`, after a successful login. The IP-wide count is
   * kept, as Symfony keeps it: otherwise one valid account would let an IP try others for ever.
   */
  async reset(ip: string, identifier: string): Promise<void> {
    const key = userKey(ip, identifier);
    // Memory too: counts made there during an outage would come back at the next one.
    await Promise.all([this.#perUser.limiter.delete(key), this.#perUser.memory.delete(key)]);
  }

  #msBeforeNext(res: RateLimiterRes): number {
    // A key without a TTL (pttl -1) should not exist; wait a whole interval rather than not at all.
    return res.msBeforeNext > 0 ? res.msBeforeNext : this.#intervalSeconds * 1000;
  }
}

/** `identifier` as Symfony compares it for throttling: case and Unicode compatibility forms ignored. */
export function normalizeIdentifier(identifier: string): string {
  return identifier.normalize('NFKC').toLowerCase();
}

function userKey(ip: string, identifier: string): string {
  return `${ip}:${createHash('sha256').update(normalizeIdentifier(identifier)).digest('hex')}`;
}

function isExhausted(res: RateLimiterRes | null, limiter: InsuredLimiter): res is RateLimiterRes {
  return res !== null && res.consumedPoints >= limiter.maxAttempts;
}

function insuredLimiter(redis: RedisClient, keyPrefix: string, points: number, duration: number, timeoutMs: number): InsuredLimiter {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  // Not ready means reconnecting or closed: ioredis would queue the call until it gives up.
  const store = new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, rejectIfRedisNotReady: true, insuranceLimiter: memory });
  // A Redis that is connected but does not answer (a partition, a stalled server) must not hang the login.
  return { limiter: new RLWrapperTimeouts({ limiter: store, timeoutMs, insuranceLimiter: memory }), memory, maxAttempts: points };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid login throttle ${name} "${value}": expected a positive integer.`);
  }
  return value;
}
