import { LoupeError } from '../../../errors/loupe-error';
import { type LiveFeed } from './live-feed';
import { type LivePublisher } from './live-publisher';
import { liveMessage, parseLiveMessage } from './live-summary';

/**
 * The live feed of a process that keeps its profiles itself: what its writer publishes goes
 * straight to its live clients, as the message RedisLiveFeed would pass on (the summaries'
 * fields only). Publishing never throws: a listener that fails loses its message, not the batch.
 */
export class MemoryLiveFeed implements LiveFeed, LivePublisher {
  readonly #listeners: ((message: string) => void)[] = [];
  #closed = false;

  publish(rows: readonly string[]): void {
    if (this.#closed || rows.length === 0 || this.#listeners.length === 0) return;
    // Through the same parser as a Redis message, so that both feeds pass on exactly the same fields.
    const forwarded = JSON.stringify(parseLiveMessage(liveMessage(rows)));
    for (const listener of this.#listeners) {
      try {
        listener(forwarded);
      } catch {
        // A client that cannot be written to is the socket's to close; the others still get it.
      }
    }
  }

  onMessage(listener: (message: string) => void): void {
    this.#listeners.push(listener);
  }

  start(): Promise<void> {
    if (this.#closed) return Promise.reject(new LoupeError('LOUPE_ERR_PROFILER_STORAGE_UNAVAILABLE', 'The live feed is closed: the server is shutting down.'));
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.length = 0;
  }
}
