/**
 * The summaries of profiles as they are stored, for the live list (`/_profiler/live`): from Redis
 * (RedisLiveFeed, every process sharing the prefix) or from this process (MemoryLiveFeed).
 */
export interface LiveFeed {
  /** Calls `listener` with each message: a JSON array of live summaries, re-serialized from what it holds (nothing else is passed on). */
  onMessage(listener: (message: string) => void): void;
  /** Resolves once messages flow; a failed start is tried again by the next call. */
  start(): Promise<void>;
  close(): Promise<void>;
}
