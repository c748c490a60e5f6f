import type Redis from 'ioredis';
import { formatToken, permuteToken, TOKEN_SPACE } from './token-permutation';

export interface TokenAllocatorOptions {
  readonly redis: Redis;
  readonly prefix: string;
  /** Sequence numbers reserved per Redis round trip. */
  readonly blockSize?: number;
}

/**
 * Hands out profiler tokens that are unique across every process sharing one Redis, without a
 * Redis round trip per request: each process reserves blocks of sequence numbers with INCRBY
 * (reserving the next block while half of the current one is left) and maps each number to a
 * token with a keyed permutation of the 24-bit space. A token comes back only after 16.7 million
 * allocations, by which time retention (capped below that) has removed its old profile.
 */
export class TokenAllocator {
  readonly #redis: Redis;
  readonly #sequenceKey: string;
  readonly #permutationKey: string;
  readonly #blockSize: number;
  #key = 0;
  #next = 0;
  #end = 0;
  #reserved: { start: number; end: number } | null = null;
  #reserving = false;

  constructor(options: TokenAllocatorOptions) {
    this.#redis = options.redis;
    this.#sequenceKey = `${options.prefix}profiler:token-sequence`;
    this.#permutationKey = `${options.prefix}profiler:token-key`;
    this.#blockSize = options.blockSize ?? 1024;
  }

  /** Loads the permutation key (shared by every process on this Redis) and the first block. */
  async start(): Promise<void> {
    const candidate = String(Math.floor(Math.random() * 0xffffffff));
    await this.#redis.set(this.#permutationKey, candidate, 'NX');
    this.#key = Number(await this.#redis.get(this.#permutationKey)) >>> 0;
    const block = await this.#reserveBlock();
    this.#next = block.start;
    this.#end = block.end;
  }

  /** A fresh token, or `null` when no reserved number is left (Redis unreachable for a while). */
  allocate(): string | null {
    if (this.#next >= this.#end) {
      if (this.#reserved === null) {
        this.#prefetch();
        return null;
      }
      this.#next = this.#reserved.start;
      this.#end = this.#reserved.end;
      this.#reserved = null;
    }
    const sequence = this.#next++;
    if (this.#reserved === null && this.#end - this.#next < this.#blockSize / 2) this.#prefetch();
    return formatToken(permuteToken(sequence % TOKEN_SPACE, this.#key));
  }

  #prefetch(): void {
    if (this.#reserving) return;
    this.#reserving = true;
    this.#reserveBlock().then(
      (block) => {
        this.#reserving = false;
        this.#reserved = block;
      },
      () => {
        // Redis is down: allocate() answers null until a later prefetch succeeds.
        this.#reserving = false;
      },
    );
  }

  async #reserveBlock(): Promise<{ start: number; end: number }> {
    const end = await this.#redis.incrby(this.#sequenceKey, this.#blockSize);
    return { start: end - this.#blockSize, end };
  }
}
