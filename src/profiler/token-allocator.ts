import type Redis from 'ioredis';
import { formatToken, permuteToken, TOKEN_SPACE } from './token-permutation';

/**
 * Reserves a block and reads the permutation key in one step, creating the key when missing (a
 * fresh or restarted Redis): every process then uses the key that goes with its block.
 * KEYS: sequence, permutation key. ARGV: block size, candidate key. Returns { end, key }.
 */
const RESERVE_SCRIPT = `
redis.call('SET', KEYS[2], ARGV[2], 'NX')
return { redis.call('INCRBY', KEYS[1], ARGV[1]), redis.call('GET', KEYS[2]) }
`;

type ReservingRedis = Redis & { loupeReserveTokens(sequenceKey: string, permutationKey: string, size: number, candidate: string): Promise<[number, string]> };

export interface TokenAllocatorOptions {
  readonly redis: Redis;
  readonly prefix: string;
  /** Sequence numbers reserved per Redis round trip. */
  readonly blockSize?: number;
}

interface Block {
  readonly start: number;
  readonly end: number;
  /** The permutation key in force when the block was reserved. */
  readonly key: number;
}

/**
 * Hands out profiler tokens that are unique across every process sharing one Redis, without a
 * Redis round trip per request: each process reserves blocks of sequence numbers with INCRBY
 * (always holding the next block in reserve) and maps each number to a
 * token with a keyed permutation of the 24-bit space. A token comes back only after 16.7 million
 * allocations, by which time retention (capped below that) has removed its old profile.
 */
export class TokenAllocator {
  readonly #redis: ReservingRedis;
  readonly #sequenceKey: string;
  readonly #permutationKey: string;
  readonly #blockSize: number;
  #key = 0;
  #next = 0;
  #end = 0;
  #reserved: Block | null = null;
  #generation = 0;
  #reserving = false;

  constructor(options: TokenAllocatorOptions) {
    const redis = options.redis as ReservingRedis;
    if (typeof redis.loupeReserveTokens !== 'function') redis.defineCommand('loupeReserveTokens', { numberOfKeys: 2, lua: RESERVE_SCRIPT });
    this.#redis = redis;
    // After a reconnect Redis may have restarted empty, with a new key and sequence: start a new block.
    redis.on('ready', () => this.#discardBlocks());
    this.#sequenceKey = `${options.prefix}profiler:token-sequence`;
    this.#permutationKey = `${options.prefix}profiler:token-key`;
    this.#blockSize = options.blockSize ?? 4096;
  }

  /** Reserves the first block; until then allocate() answers null. */
  async start(): Promise<void> {
    this.#use(await this.#reserveBlock());
  }

  /** A fresh token, or `null` when no reserved number is left (Redis unreachable for a while). */
  allocate(): string | null {
    if (this.#next >= this.#end) {
      if (this.#reserved === null) {
        this.#prefetch();
        return null;
      }
      this.#use(this.#reserved);
      this.#reserved = null;
    }
    const sequence = this.#next++;
    // Keep a whole block in reserve: a busy event loop or Redis may take a while to answer.
    if (this.#reserved === null) this.#prefetch();
    return formatToken(permuteToken(sequence % TOKEN_SPACE, this.#key));
  }

  #use(block: Block): void {
    this.#next = block.start;
    this.#end = block.end;
    this.#key = block.key;
  }

  #discardBlocks(): void {
    this.#generation += 1;
    this.#next = this.#end;
    this.#reserved = null;
    this.#prefetch();
  }

  #prefetch(): void {
    if (this.#reserving) return;
    this.#reserving = true;
    const generation = this.#generation;
    this.#reserveBlock().then(
      (block) => {
        this.#reserving = false;
        // A block reserved before a reconnect may belong to a Redis that has since restarted.
        if (generation === this.#generation) this.#reserved = block;
        else this.#prefetch();
      },
      () => {
        // Redis is down: allocate() answers null until a later prefetch succeeds.
        this.#reserving = false;
      },
    );
  }

  async #reserveBlock(): Promise<Block> {
    const candidate = String(Math.floor(Math.random() * 0xffffffff));
    const [end, key] = await this.#redis.loupeReserveTokens(this.#sequenceKey, this.#permutationKey, this.#blockSize, candidate);
    return { start: end - this.#blockSize, end, key: Number(key) >>> 0 };
  }
}
