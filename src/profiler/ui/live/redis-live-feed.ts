import { duplicateClient, isCluster, type RedisClient } from '../../../redis/redis-client';
import { LoupeError } from '../../../errors/loupe-error';
import { closeRedis, REDIS_CLUSTER_HELP, REDIS_HELP } from '../../../redis/connect-redis';
import { withDeadline } from '../../../redis/with-deadline';
import { type LiveFeed } from './live-feed';
import { liveChannel, parseLiveMessage } from './live-summary';

/**
 * This process's one subscription to `<prefix>profiler:live`, on a connection of its own (a
 * subscribed connection can run no other command). Started by the first live client rather
 * than at start, so that a server nobody watches holds no extra connection; kept until close.
 * ioredis reconnects and subscribes again by itself after Redis comes back. On a cluster it
 * subscribes on one node, and on another when that one goes: a PUBLISH reaches every node.
 */
export class RedisLiveFeed implements LiveFeed {
  readonly #source: RedisClient;
  readonly #channel: string;
  readonly #connectTimeoutMs: number;
  readonly #listeners: ((message: string) => void)[] = [];
  #subscriber: RedisClient | null = null;
  #started: Promise<void> | null = null;
  #closed = false;

  /** `source` is duplicated (same URL and timeouts), never used itself. */
  constructor(source: RedisClient, prefix: string, connectTimeoutMs: number) {
    this.#source = source;
    this.#channel = liveChannel(prefix);
    this.#connectTimeoutMs = connectTimeoutMs;
  }

  onMessage(listener: (message: string) => void): void {
    this.#listeners.push(listener);
  }

  /** Subscribes once; resolves when messages flow. A failed start is tried again by the next call. */
  start(): Promise<void> {
    if (this.#closed) return Promise.reject(new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', 'The live feed is closed: the server is shutting down.'));
    this.#started ??= this.#subscribe().catch((error: unknown) => {
      this.#started = null;
      throw error;
    });
    return this.#started;
  }

  async #subscribe(): Promise<void> {
    const subscriber = duplicateClient(this.#source, 'loupe-live');
    subscriber.on('error', () => undefined);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.#channel) return;
      const summaries = parseLiveMessage(message);
      if (summaries.length === 0) return;
      const forwarded = JSON.stringify(summaries);
      for (const listener of this.#listeners) listener(forwarded);
    });
    this.#subscriber = subscriber;
    try {
      await withDeadline(
        subscriber.connect().then(() => subscriber.subscribe(this.#channel)),
        this.#connectTimeoutMs,
        `no answer within ${this.#connectTimeoutMs} ms (REDIS_CONNECT_TIMEOUT_MS)`,
      );
    } catch (error) {
      this.#subscriber = null;
      subscriber.disconnect();
      const reason = error instanceof Error ? error.message : String(error);
      throw new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', `The live feed cannot subscribe to Redis. ${isCluster(this.#source) ? REDIS_CLUSTER_HELP : REDIS_HELP} (${reason})`, { cause: error });
    }
  }

  /** Ends the subscription; bounded as every Redis close is. */
  async close(): Promise<void> {
    this.#closed = true;
    const subscriber = this.#subscriber;
    this.#subscriber = null;
    if (subscriber !== null) await closeRedis(subscriber);
  }
}
