import type Redis from 'ioredis';
import { formatToken, permuteToken, TOKEN_SPACE } from './token-permutation';

/**
 * Reserves a block of sequence numbers and reads the permutation key in one step. Both live in
 * one hash, so that they are lost together (FLUSHALL, eviction, a restarted Redis) or not at all.
 * A missing hash starts a new epoch: a caller that knows the key in force before carries it on,
 * with the sequence past every number it reserved (plus a gap for other processes' blocks), so
 * that no token comes back; a caller that knows none starts a new key at 0. A caller whose key
 * is the current one also raises the sequence past its own blocks. An epoch that starts while
 * profiles are still indexed (only the hash was lost) checks every block against them.
 * KEYS: hash, profile index. ARGV: block size, candidate key, known key ('' when none), known
 * end, gap. Returns { end, key, check (1/0) }.
 */
const RESERVE_SCRIPT = `
local size, candidate, known, knownEnd, gap = tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local key = redis.call('HGET', KEYS[1], 'key')
if not key then
  if known ~= '' then
    key = known
    redis.call('HSET', KEYS[1], 'key', key, 'sequence', knownEnd + gap)
  else
    key = candidate
    redis.call('HSET', KEYS[1], 'key', key, 'sequence', 0)
  end
  redis.call('HSET', KEYS[1], 'check', redis.call('EXISTS', KEYS[2]))
elseif key == known and tonumber(redis.call('HGET', KEYS[1], 'sequence')) < knownEnd then
  redis.call('HSET', KEYS[1], 'sequence', knownEnd)
end
local finish = redis.call('HINCRBY', KEYS[1], 'sequence', size)
return { finish, key, tonumber(redis.call('HGET', KEYS[1], 'check') or '0') }
`;

/**
 * Which of the tokens given already name a stored profile or a tombstone: those are skipped.
 * ARGV: prefix, then tokens. Returns their positions (from 0).
 */
const TAKEN_SCRIPT = `
local p, taken = ARGV[1], {}
for i = 2, #ARGV do
  if redis.call('EXISTS', p .. 'profile:' .. ARGV[i], p .. 'profile-dropped:' .. ARGV[i]) > 0 then taken[#taken + 1] = i - 2 end
end
return taken
`;

type ReservingRedis = Redis & {
  loupeReserveTokens(hashKey: string, indexKey: string, size: number, candidate: string, known: string, knownEnd: number, gap: number): Promise<[number, string, number]>;
  loupeTakenTokens(prefix: string, ...tokens: string[]): Promise<number[]>;
};

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
  readonly key: string;
  /** Sequence numbers whose tokens already name a profile or a tombstone. */
  readonly taken: ReadonlySet<number>;
}

/** Blocks other processes may have reserved beyond this one's, skipped when the keys were lost. */
const EPOCH_GAP_BLOCKS = 64;

/**
 * Hands out profiler tokens that are unique across every process sharing one Redis, without a
 * Redis round trip per request: each process reserves blocks of sequence numbers (always holding
 * the next block in reserve) and maps each number to a token with a keyed permutation of the
 * 24-bit space. A token comes back only after 16.7 million allocations, by which time retention
 * (capped below that) has removed its old profile. When the allocation keys are lost, the
 * process carries its key and sequence into the new epoch (see RESERVE_SCRIPT), and a token that
 * still names a profile or a tombstone is never handed out.
 */
export class TokenAllocator {
  readonly #redis: ReservingRedis;
  readonly #prefix: string;
  readonly #hashKey: string;
  readonly #blockSize: number;
  #current: Block | null = null;
  #next = 0;
  #reserved: Block | null = null;
  /** The end of the last block reserved: what this process knows of the sequence. */
  #knownEnd = 0;
  #reserving = false;

  constructor(options: TokenAllocatorOptions) {
    const redis = options.redis as ReservingRedis;
    if (typeof redis.loupeReserveTokens !== 'function') {
      redis.defineCommand('loupeReserveTokens', { numberOfKeys: 2, lua: RESERVE_SCRIPT });
      redis.defineCommand('loupeTakenTokens', { numberOfKeys: 0, lua: TAKEN_SCRIPT });
    }
    this.#redis = redis;
    // After a reconnect Redis may have restarted empty: reserve at once, so that this process's
    // key and sequence are carried on before a process that knows none starts a new key.
    redis.on('ready', () => this.#prefetch());
    this.#prefix = options.prefix;
    this.#hashKey = `${options.prefix}profiler:tokens`;
    this.#blockSize = options.blockSize ?? 4096;
  }

  /** Reserves the first block; until then allocate() answers null. */
  async start(): Promise<void> {
    this.#use(await this.#reserveBlock());
  }

  /** A fresh token, or `null` when no reserved number is left (Redis unreachable for a while). */
  allocate(): string | null {
    for (;;) {
      const block = this.#current;
      if (block === null || this.#next >= block.end) {
        if (this.#reserved === null) {
          this.#prefetch();
          return null;
        }
        this.#use(this.#reserved);
        this.#reserved = null;
        continue;
      }
      const sequence = this.#next++;
      if (block.taken.has(sequence)) continue;
      // Keep a whole block in reserve: a busy event loop or Redis may take a while to answer.
      if (this.#reserved === null) this.#prefetch();
      return formatToken(permuteToken(sequence % TOKEN_SPACE, Number(block.key) >>> 0));
    }
  }

  #use(block: Block): void {
    this.#current = block;
    this.#next = block.start;
  }

  #prefetch(): void {
    if (this.#reserving) return;
    this.#reserving = true;
    this.#reserveBlock().then(
      (block) => {
        this.#reserving = false;
        // Another key means another epoch (a process that knew none started it): the blocks held
        // belong to the old one, whose tokens may meet the new one's.
        if (this.#current !== null && this.#current.key !== block.key) {
          this.#use(block);
          this.#reserved = null;
        } else if (this.#reserved === null) this.#reserved = block;
      },
      () => {
        // Redis is down: allocate() answers null until a later prefetch succeeds.
        this.#reserving = false;
      },
    );
  }

  async #reserveBlock(): Promise<Block> {
    const candidate = String(Math.floor(Math.random() * 0xffffffff));
    const known = this.#reserved ?? this.#current;
    const [end, key, check] = await this.#redis.loupeReserveTokens(this.#hashKey, `${this.#prefix}profiler:index`, this.#blockSize, candidate, known?.key ?? '', this.#knownEnd, EPOCH_GAP_BLOCKS * this.#blockSize);
    const start = end - this.#blockSize;
    if (known === null || key === known.key) this.#knownEnd = Math.max(this.#knownEnd, end);
    else this.#knownEnd = end;
    if (check !== 1) return { start, end, key, taken: new Set() };
    const permutationKey = Number(key) >>> 0;
    const tokens = Array.from({ length: this.#blockSize }, (_, i) => formatToken(permuteToken((start + i) % TOKEN_SPACE, permutationKey)));
    const taken = await this.#redis.loupeTakenTokens(this.#prefix, ...tokens);
    return { start, end, key, taken: new Set(taken.map((offset) => start + offset)) };
  }
}
