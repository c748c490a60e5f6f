import { type RedisClient } from '../../../redis/redis-client';
import { liveChannel, type LiveSummary } from './live-summary';

/** Announces stored profiles to live lists; never throws, never waits. */
export interface LivePublisher {
  publish(summaries: readonly LiveSummary[]): void;
}

/** What the publisher could not announce, for the status counters. */
export interface LivePublisherStats {
  published: number;
  failed: number;
}

/**
 * Publishes one message per stored batch on `<prefix>profiler:live`: a JSON array of live
 * summaries. The PUBLISH goes on the writer's connection right behind the write and is not
 * waited for: announcing is best effort, so a failed or slow one loses an announcement, never a
 * profile, and never holds the next batch.
 */
export class RedisLivePublisher implements LivePublisher {
  readonly stats: LivePublisherStats = { published: 0, failed: 0 };
  readonly #redis: RedisClient;
  readonly #channel: string;

  constructor(redis: RedisClient, prefix: string) {
    this.#redis = redis;
    this.#channel = liveChannel(prefix);
  }

  publish(summaries: readonly LiveSummary[]): void {
    if (summaries.length === 0) return;
    this.#redis.publish(this.#channel, JSON.stringify(summaries)).then(
      () => void (this.stats.published += summaries.length),
      () => void (this.stats.failed += summaries.length),
    );
  }
}
