import { isCluster, type RedisClient } from '../../redis/redis-client';
import { ProfileKeys } from './profile-keys';
import { formatToken, permuteToken, TOKEN_SPACE } from './token-permutation';
import { type TokenSource } from './token-source';

/**
 * Reserves a block of sequence numbers and reads the permutation key in one step. Both live in
 * one hash, so that they are lost together (FLUSHALL, eviction, a restarted Redis) or not at all.
 * A missing hash starts a new epoch: a caller that knows the key in force before carries it on,
 * with the sequence past every number it reserved (plus a gap for other processes' blocks), so
 * that no token comes back; a caller that knows none starts a new key at 0. A caller whose key
 * is the current one also raises the sequence past its own blocks. An epoch that starts while
 * profiles are still indexed (only the hash was lost) checks every block against them. On one
 * Redis the script looks at the profile indexes itself; on a cluster they live in other slots,
 * so a new epoch checks until the caller that started it has found none indexed.
 * KEYS: hash, then every group's profile index on one Redis (none on a cluster). ARGV: block
 * size, candidate key, known key ('' when none), known end, gap. Returns { end, key, check (1/0),
 * unknown (1 when this call started the epoch without looking at the indexes) }.
 */
const RESERVE_SCRIPT = `
local size, candidate, known, knownEnd, gap = tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local key = redis.call('HGET', KEYS[1], 'key')
local unknown = 0
if not key then
  if known ~= '' then
    key = known
    redis.call('HSET', KEYS[1], 'key', key, 'sequence', knownEnd + gap)
  else
    key = candidate
    redis.call('HSET', KEYS[1], 'key', key, 'sequence', 0)
  end
  if #KEYS > 1 then
    redis.call('HSET', KEYS[1], 'check', math.min(1, redis.call('EXISTS', unpack(KEYS, 2))))
  else
    redis.call('HSET', KEYS[1], 'check', 1)
    unknown = 1
  end
elseif key == known and tonumber(redis.call('HGET', KEYS[1], 'sequence')) < knownEnd then
  redis.call('HSET', KEYS[1], 'sequence', knownEnd)
end
local finish = redis.call('HINCRBY', KEYS[1], 'sequence', size)
return { finish, key, tonumber(redis.call('HGET', KEYS[1], 'check') or '0'), unknown }
`;

/** KEYS: hash. ARGV: the epoch's key. Ends the checks of that epoch (no profile was indexed when it started). */
const UNCHECK_SCRIPT = `
if redis.call('HGET', KEYS[1], 'key') == ARGV[1] then redis.call('HSET', KEYS[1], 'check', 0) end
return 0
`;

/**
 * Which of the tokens given already name a stored profile or a tombstone: those are skipped.
 * KEYS: each token's profile key and tombstone key, in turn (one group's, so one slot). Returns
 * the tokens' positions (from 0).
 */
const TAKEN_SCRIPT = `
local taken = {}
for i = 1, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i], KEYS[i + 1]) > 0 then taken[#taken + 1] = (i - 1) / 2 end
end
return taken
`;

type ReservingRedis = RedisClient & {
  loupeReserveTokens(keyCount: number, ...args: (string | number)[]): Promise<[number, string, number, number]>;
  loupeUncheckTokens(hashKey: string, key: string): Promise<number>;
  loupeTakenTokens(keyCount: number, ...keys: string[]): Promise<number[]>;
};

export interface TokenAllocatorOptions {
  readonly redis: RedisClient;
  readonly prefix: string;
  /** The profile storage's groups and hash tags (see RedisProfileStorageOptions): where stored tokens are looked for. */
  readonly groups?: number;
  readonly hashTags?: boolean;
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
export class TokenAllocator implements TokenSource {
  readonly #redis: ReservingRedis;
  readonly #keys: ProfileKeys;
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
      // The number of keys comes first in these calls: it depends on the server and the block.
      redis.defineCommand('loupeReserveTokens', { lua: RESERVE_SCRIPT });
      redis.defineCommand('loupeTakenTokens', { lua: TAKEN_SCRIPT });
      redis.defineCommand('loupeUncheckTokens', { numberOfKeys: 1, lua: UNCHECK_SCRIPT });
    }
    this.#redis = redis;
    // After a reconnect Redis may have restarted empty: reserve at once, so that this process's
    // key and sequence are carried on before a process that knows none starts a new key.
    redis.on('ready', () => this.#prefetch());
    this.#keys = new ProfileKeys({ prefix: options.prefix, groups: options.groups ?? 1, hashTags: options.hashTags ?? false });
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
    const hash = this.#keys.tokens;
    const keys = isCluster(this.#redis) ? [hash] : [hash, ...this.#keys.groups.map((group) => group.index)];
    const [end, key, check, unknown] = await this.#redis.loupeReserveTokens(keys.length, ...keys, this.#blockSize, candidate, known?.key ?? '', this.#knownEnd, EPOCH_GAP_BLOCKS * this.#blockSize);
    const start = end - this.#blockSize;
    if (known === null || key === known.key) this.#knownEnd = Math.max(this.#knownEnd, end);
    else this.#knownEnd = end;
    if (check !== 1) return { start, end, key, taken: new Set() };
    if (unknown === 1 && !(await this.#anyIndexed())) {
      // Nothing from before the epoch is stored: neither this block nor any later one needs a check.
      await this.#redis.loupeUncheckTokens(hash, key);
      return { start, end, key, taken: new Set() };
    }
    const permutationKey = Number(key) >>> 0;
    const tokens = Array.from({ length: this.#blockSize }, (_, i) => formatToken(permuteToken((start + i) % TOKEN_SPACE, permutationKey)));
    return { start, end, key, taken: await this.#taken(tokens, start) };
  }

  /** Whether any group's index holds a profile; one EXISTS per group, as a cluster keeps them in different slots. */
  async #anyIndexed(): Promise<boolean> {
    const counts = await Promise.all(this.#keys.groups.map((keys) => this.#redis.exists(keys.index)));
    return counts.some((count) => count > 0);
  }

  /** The sequence numbers (from `start`) of `tokens` that name a profile or a tombstone: one call per group. */
  async #taken(tokens: readonly string[], start: number): Promise<Set<number>> {
    const parts = this.#keys.split(
      tokens.map((token, offset) => ({ token, offset })),
      (entry) => entry.token,
    );
    const taken = new Set<number>();
    await Promise.all(
      [...parts].map(async ([keys, part]) => {
        const pairs = part.flatMap(({ token }) => [keys.profile(token), keys.dropped(token)]);
        for (const position of await this.#redis.loupeTakenTokens(pairs.length, ...pairs)) {
          const entry = part[position];
          if (entry !== undefined) taken.add(start + entry.offset);
        }
      }),
    );
    return taken;
  }
}
