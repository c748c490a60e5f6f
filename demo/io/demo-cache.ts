import { Cluster, Redis } from 'ioredis';
import { currentRequest, ServiceUnavailableHttpError, type RedisConfig } from '../../src';

/** What the cache answers: the value, and whether it came from Redis. */
export interface Cached<T> {
  readonly value: T;
  readonly hit: boolean;
}

/** The demo's own client of Loupe's Redis (or cluster); it connects on its first command only. */
function createClient(redis: RedisConfig): Redis | Cluster {
  const common = { lazyConnect: true, commandTimeout: redis.commandTimeoutMs, connectionName: 'loupe-demo-cache' } as const;
  const { cluster } = redis;
  if (cluster === null) return new Redis(redis.url, { ...common, maxRetriesPerRequest: 1 });
  return new Cluster(
    cluster.nodes.map(({ host, port }) => ({ host, port })),
    {
      lazyConnect: true,
      redisOptions: {
        ...common,
        ...(cluster.username === null ? {} : { username: cluster.username }),
        ...(cluster.password === null ? {} : { password: cluster.password }),
        ...(cluster.tls ? { tls: {} } : {}),
      },
    },
  );
}

/**
 * A read-through cache in Redis, through an ioredis client of the demo's own, as an application
 * has one: the profiler shows its commands in the request's Redis panel, and none of Loupe's
 * (sessions, profiles), which run on Loupe's own connections. Its keys live under
 * `<REDIS_PREFIX>demo:cache:`, so that they never mix with Loupe's and go with the prefix.
 */
export class DemoCache {
  readonly prefix: string;
  readonly #redis: Redis | Cluster;

  constructor(redis: RedisConfig, warn: (message: string) => void) {
    this.prefix = `${redis.prefix}demo:cache:`;
    this.#redis = createClient(redis);
    // ioredis emits every failed reconnect; the command that failed answers the request with its cause.
    this.#redis.on('error', (error: unknown) => warn(`The demo's cache client: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** The value under `key`, or what `compute` makes of it, kept `ttlSeconds`. */
  async remember<T>(key: string, ttlSeconds: number, compute: () => Promise<T>): Promise<Cached<T>> {
    const fullKey = this.prefix + key;
    const stored = await this.#command(() => this.#redis.get(fullKey));
    if (stored !== null) return { value: JSON.parse(stored) as T, hit: true };
    const value = await compute();
    await this.#command(() => this.#redis.set(fullKey, JSON.stringify(value), 'EX', ttlSeconds));
    currentRequest()?.log('debug', 'Cached a computed value.', { key: fullKey, ttl: ttlSeconds });
    return { value, hit: false };
  }

  /** A Redis failure is the cache's, a 503 with ioredis' error as its cause. */
  async #command<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw new ServiceUnavailableHttpError("The demo's cache (Redis) did not answer.", { cause: error });
    }
  }

  /**
   * Connects now, outside any request, so that the connection's handshake (CLIENT SETNAME, INFO…)
   * is in no request's profile; without it the first command connects.
   */
  async connect(): Promise<void> {
    if (this.#redis.status === 'wait') await this.#redis.connect();
  }

  /** Closes the connection, if it was ever opened. */
  async close(): Promise<void> {
    if (this.#redis.status === 'wait' || this.#redis.status === 'end') {
      this.#redis.disconnect();
      return;
    }
    await this.#redis.quit().catch(() => this.#redis.disconnect());
  }
}
