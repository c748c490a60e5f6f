import { type RedisClient } from '../../../redis/redis-client';
import { liveChannel, liveMessage } from './live-summary';

/** Announces stored profiles to live lists; never throws, never waits. */
export interface LivePublisher {
  /** `rows`: the search rows of the profiles just stored, each the JSON stored in the index. */
  publish(rows: readonly string[]): void;
}

/** What the publisher could not announce, for the status counters. */
export interface LivePublisherStats {
  published: number;
  failed: number;
}

/**
 * Publishes one message per stored batch on `<prefix>profiler:live`: a JSON array of the search
 * rows stored, which listeners read as live summaries (parseLiveMessage); the rows are already
 * serialized for the index, so announcing serializes nothing again. The PUBLISH goes on the
 * writer's connection right behind the write and is not waited for: announcing is best effort, so
 * a failed or slow one loses an announcement, never a profile, and never holds the next batch.
 */
export class RedisLivePublisher implements LivePublisher {
  readonly stats: LivePublisherStats = { published: 0, failed: 0 };
  readonly #redis: RedisClient;
  readonly #channel: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#channel = liveChannel(prefix);
  }

  publish(rows: readonly string[]): void {
    if (rows.length === 0) return;
    this.#redis.publish(this.#channel, liveMessage(rows)).then(
      () => void (this.stats.published += rows.length),
      () => void (this.stats.failed += rows.length),
    );
  }
}
