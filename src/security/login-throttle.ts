import { createHash } from 'node:crypto';
import { type RedisClient } from '../redis/redis-client';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LoupeError } from '../errors/loupe-error';

export interface LoginThrottleOptions {
  /** Failed logins allowed per client IP and identifier in one interval; the IP as a whole gets five times as many. */
  readonly maxAttempts?: number;
  /**
   * Failed logins allowed per identifier in one interval, whatever the address (default five times
   * `maxAttempts`): an attacker with many addresses still gets only this many guesses at one account.
   */
  readonly maxAttemptsPerIdentifier?: number;
  /** Seconds from an IP's (or IP and identifier's) first failure until its count starts again. */
  readonly intervalSeconds?: number;
  /** Milliseconds a Redis call may take before the in-memory limiter answers instead. */
  readonly redisTimeoutMs?: number;
}

/** Whether a login may be attempted now, and if not, in how many seconds. */
export type LoginThrottleDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Symfony's DefaultLoginRateLimiter gives the IP-wide limiter five times the per-user limit. */
const IP_FACTOR = 5;

/**
 * A limiter kept in Redis, answered from process memory when Redis fails or is too slow; and a
 * mirror of this process's own attempts, also consumed on every attempt. A Redis reply that comes
 * later than the timeout (an event loop busy with a burst of logins is enough) hands the attempt
 * to the insurance, which has not seen the attempts Redis counted: the mirror has, so one process
 * never allows more than the allowance, Redis slow or not. (A reset made by another process does
 * not reach this mirror: it errs on the side of refusing, for one interval at most.)
 */
interface InsuredLimiter {
  /** Redis with its insurance, or (without Redis) the memory limiter alone. */
  readonly limiter: RateLimiterAbstract;
  readonly memory: RateLimiterMemory;
  /** `null` without Redis: the limiter is this process's memory already. */
  readonly mirror: RateLimiterMemory | null;
  readonly maxAttempts: number;
}

/** The stores an attempt is counted in and read from: the mirror (with Redis) and the limiter. */
function storesOf(limiter: InsuredLimiter): readonly RateLimiterAbstract[] {
  return limiter.mirror === null ? [limiter.limiter] : [limiter.mirror, limiter.limiter];
}

/**
 * Failed-login throttling as Symfony's login throttling: one fixed-window limiter per client IP
 * and identifier, and one per client IP at five times that, so that one IP can neither guess one
 * password nor spray a few guesses over many users; and one per identifier across addresses, so
 * that many IPs cannot either. An attempt is counted before the password is checked (consume()
 * is one atomic INCR per limiter), as Symfony's LoginThrottlingListener consumes at
 * CheckPassportEvent: a burst of parallel guesses gets at most the allowance of real checks,
 * where checking first and counting after the check let all of them through.
 * Counts live in Redis, so processes sharing it
 * throttle together; when Redis errs, is not connected or does not answer within the timeout, an
 * in-memory limiter answers instead (rate-limiter-flexible's `insuranceLimiter`), so a Redis fault
 * never turns a login into a 500. The client is the caller's, and should be connected: calls made
 * while it is not ready go to memory at once.
 *
 * Keys: `<prefix>login-throttle:ip:<ip>`, `<prefix>login-throttle:ip-user:<ip>:<sha256>` and
 * `<prefix>login-throttle:user:<sha256>`. The
 * identifier is hashed, as Symfony 6.4 does, so that keys are bounded and hold no user names.
 *
 * Without Redis (`redis` null: REDIS_URL empty) the counts live in this process's memory only:
 * the same limits for an application that runs on one process, which is what Loupe allows then.
 */
export class LoginThrottle {
  readonly #perIp: InsuredLimiter;
  readonly #perUser: InsuredLimiter;
  readonly #perIdentifier: InsuredLimiter;
  readonly #intervalSeconds: number;

  constructor(redis: RedisClient | null, prefix: string, options: LoginThrottleOptions = {}) {
    const maxAttempts = positiveInteger('maxAttempts', options.maxAttempts ?? 5);
    this.#intervalSeconds = positiveInteger('intervalSeconds', options.intervalSeconds ?? 60);
    const timeoutMs = positiveInteger('redisTimeoutMs', options.redisTimeoutMs ?? 500);
    const limiter = (name: string, points: number): InsuredLimiter =>
      insuredLimiter(redis, `${prefix}login-throttle:${name}`, points, this.#intervalSeconds, timeoutMs);
    this.#perIp = limiter('ip', maxAttempts * IP_FACTOR);
    this.#perUser = limiter('ip-user', maxAttempts);
    this.#perIdentifier = limiter('user', positiveInteger('maxAttemptsPerIdentifier', options.maxAttemptsPerIdentifier ?? maxAttempts * IP_FACTOR));
  }

  /**
   * Whether `identifier` may try to log in from `ip` now; consumes nothing. Asked before any
   * cache of verified credentials, so that a locked-out client cannot learn that a guess is right.
   */
  async check(ip: string, identifier: string): Promise<LoginThrottleDecision> {
    const reads = this.#keyed(ip, identifier).flatMap(([limiter, key]) => storesOf(limiter).map(async (store) => ({ limiter, res: await store.get(key) })));
    let retryAfterMs = 0;
    for (const { limiter, res } of await Promise.all(reads)) {
      if (res !== null && res.consumedPoints >= limiter.maxAttempts) retryAfterMs = Math.max(retryAfterMs, this.#msBeforeNext(res));
    }
    return this.#decision(retryAfterMs);
  }

  /**
   * Counts one attempt of `identifier` from `ip` against every limiter, before the password is
   * checked; refused when any of them is past its allowance. Counting is atomic in Redis (and in
   * memory), so however many attempts arrive at once, at most the allowance are allowed. A
   * successful login gives its attempt back with reset().
   */
  async consume(ip: string, identifier: string): Promise<LoginThrottleDecision> {
    const settled = await Promise.allSettled(this.#keyed(ip, identifier).flatMap(([limiter, key]) => storesOf(limiter).map((store) => store.consume(key))));
    let retryAfterMs = 0;
    for (const result of settled) {
      if (result.status === 'fulfilled') continue;
      // rate-limiter-flexible rejects with its result when the points are spent, with an Error when
      // the store and its insurance both failed: that is not a refusal but a fault to report.
      if (!(result.reason instanceof RateLimiterRes)) throw new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', 'The login throttle could not count an attempt.', { cause: result.reason });
      retryAfterMs = Math.max(retryAfterMs, this.#msBeforeNext(result.reason));
    }
    return this.#decision(retryAfterMs);
  }

  /**
   * After a successful login: forgets the failures of `identifier` from `ip`, and gives the IP-wide
   * and identifier-wide limiters back the point this attempt took. Their earlier failures are
   * kept, as Symfony keeps the IP-wide count: otherwise one valid account would let an IP try
   * others for ever, and the user's own logins would reopen guessing from elsewhere.
   */
  async reset(ip: string, identifier: string): Promise<void> {
    const key = userKey(ip, identifier);
    // Memory too: counts made there during an outage would come back at the next one.
    await Promise.all([
      ...[...new Set([...storesOf(this.#perUser), this.#perUser.memory])].map((store) => store.delete(key)),
      ...storesOf(this.#perIp).map((store) => store.reward(ip)),
      ...storesOf(this.#perIdentifier).map((store) => store.reward(identifierKey(identifier))),
    ]);
  }

  #keyed(ip: string, identifier: string): ReadonlyArray<readonly [InsuredLimiter, string]> {
    return [
      [this.#perIp, ip],
      [this.#perUser, userKey(ip, identifier)],
      [this.#perIdentifier, identifierKey(identifier)],
    ];
  }

  #decision(retryAfterMs: number): LoginThrottleDecision {
    if (retryAfterMs === 0) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.min(this.#intervalSeconds, Math.max(1, Math.ceil(retryAfterMs / 1000))) };
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

function identifierKey(identifier: string): string {
  return createHash('sha256').update(normalizeIdentifier(identifier)).digest('hex');
}

function userKey(ip: string, identifier: string): string {
  return `${ip}:${identifierKey(identifier)}`;
}

function insuredLimiter(redis: RedisClient | null, keyPrefix: string, points: number, duration: number, timeoutMs: number): InsuredLimiter {
  const memory = new RateLimiterMemory({ keyPrefix, points, duration });
  if (redis === null) return { limiter: memory, memory, mirror: null, maxAttempts: points };
  // Not ready means reconnecting or closed: ioredis would queue the call until it gives up.
  const store = new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, rejectIfRedisNotReady: true, insuranceLimiter: memory });
  // A Redis that is connected but does not answer (a partition, a stalled server) must not hang the login.
  const mirror = new RateLimiterMemory({ keyPrefix, points, duration });
  return { limiter: new RLWrapperTimeouts({ limiter: store, timeoutMs, insuranceLimiter: memory }), memory, mirror, maxAttempts: points };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid login throttle ${name} "${value}": expected a positive integer.`);
  }
  return value;
}
