/** Where the profiler's tokens come from: Redis (TokenAllocator, shared by every process) or this process (MemoryTokenSource). */
export interface TokenSource {
  /** A fresh six-hex-digit token, or `null` when none can be handed out now: the request is then served without a profile. */
  allocate(): string | null;
}
