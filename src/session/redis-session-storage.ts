import { type RedisClient } from '../redis/redis-client';
import { ServiceUnavailableHttpError } from '../errors/http-error';
import { type Stopwatch } from '../kernel/stopwatch';
import { type SessionData, type SessionStorage } from './session-storage';

export interface RedisSessionStorageOptions {
  /** Prefix of every key (the application's `redisPrefix`); keys read `<prefix>session:<id>`. */
  readonly prefix: string;
  /** Seconds a session lives without being written or touched. */
  readonly lifetime: number;
}

/** Redis failed or did not answer in time (the client's command timeout): a 503, worth retrying. */
function storageError(action: string, id: string, cause: unknown): ServiceUnavailableHttpError {
  const reason = cause instanceof Error ? `: ${cause.message}` : '';
  return new ServiceUnavailableHttpError(`Could not ${action} session "${id.slice(0, 8)}…" in Redis${reason}`, { code: 'LOUPE_ERR_SESSION_STORAGE_UNAVAILABLE', cause });
}

/** Runs one Redis command, as a `redis` span of the request's timeline when a stopwatch is given. */
function timed<T>(stopwatch: Stopwatch | undefined, command: string, run: () => Promise<T>): Promise<T> {
  return stopwatch === undefined ? run() : stopwatch.span(`redis ${command}`, run, 'redis');
}

/**
 * Sessions as JSON strings under `<prefix>session:<id>` with a TTL (`SET … EX`), so Redis
 * expires idle sessions itself and no garbage collector is needed. The client is the caller's.
 */
export class RedisSessionStorage implements SessionStorage {
  readonly #redis: RedisClient;
  readonly #options: RedisSessionStorageOptions;

  constructor(redis: RedisClient, options: RedisSessionStorageOptions) {
    this.#redis = redis;
    this.#options = options;
  }

  /**
   * While the connection is down a command would wait in ioredis's offline queue for the command
   * timeout; the request is answered 503 at once instead.
   */
  #assertConnected(): void {
    if (this.#redis.status !== 'ready') throw new Error('the connection to Redis is down');
  }

  /** The Redis key of session `id`. */
  key(id: string): string {
    return `${this.#options.prefix}session:${id}`;
  }

  async read(id: string, stopwatch?: Stopwatch): Promise<SessionData | null> {
    let raw: string | null;
    try {
      this.#assertConnected();
      raw = await timed(stopwatch, 'GET', () => this.#redis.get(this.key(id)));
    } catch (error) {
      throw storageError('read', id, error);
    }
    if (raw === null) return null;
    try {
      const data: unknown = JSON.parse(raw);
      // A value that is not an object was not written by us: treat the session as unknown.
      return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as SessionData) : null;
    } catch {
      return null;
    }
  }

  async write(id: string, data: Readonly<SessionData>, stopwatch?: Stopwatch): Promise<void> {
    try {
      this.#assertConnected();
      await timed(stopwatch, 'SET', () => this.#redis.set(this.key(id), JSON.stringify(data), 'EX', this.#options.lifetime));
    } catch (error) {
      throw storageError('write', id, error);
    }
  }

  async touch(id: string, stopwatch?: Stopwatch): Promise<void> {
    try {
      this.#assertConnected();
      await timed(stopwatch, 'EXPIRE', () => this.#redis.expire(this.key(id), this.#options.lifetime));
    } catch (error) {
      throw storageError('touch', id, error);
    }
  }

  async destroy(id: string, stopwatch?: Stopwatch): Promise<void> {
    try {
      this.#assertConnected();
      await timed(stopwatch, 'DEL', () => this.#redis.del(this.key(id)));
    } catch (error) {
      throw storageError('destroy', id, error);
    }
  }
}
