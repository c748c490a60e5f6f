import { type RedisClient } from '../../../redis/redis-client';
import { type Profile } from '../../profile';
import { liveChannel, liveSummary } from './live-summary';

/** Announces stored profiles to live lists; never throws, never waits. */
export interface LivePublisher {
  publish(profiles: readonly Profile[]): void;
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

  publish(profiles: readonly Profile[]): void {
    if (profiles.length === 0) return;
    let message: string;
    try {
      message = JSON.stringify(profiles.map(liveSummary));
    } catch {
      this.stats.failed += profiles.length;
      return;
    }
    this.#redis.publish(this.#channel, message).then(
      () => void (this.stats.published += profiles.length),
      () => void (this.stats.failed += profiles.length),
    );
  }
}
