import { createHash } from 'node:crypto';
import { Command } from 'ioredis';
import { type RedisClient } from '../../redis/redis-client';
import { type ProfileSummary } from '../profile';
import { mergeSearchPages, readGroupPage } from './merge-search-pages';
import { ProfileKeys, type ProfileGroupKeys } from './profile-keys';
import {
  SEARCH_SCAN_LIMIT,
  searchRowOf,
  type BatchId,
  type BatchOutcome,
  type BatchSettlement,
  type FoundRow,
  type ProfileCriteria,
  type ProfileStorage,
  type ReadResult,
  type SearchOrder,
  type SearchResult,
  type SearchSort,
  type StoredProfile,
} from './profile-storage';
import { PROFILER_DEFAULTS } from '../profiler-config';
import { FIND_SCRIPT, PURGE_SCRIPT, WRITE_SCRIPT } from './redis-scripts';
import { WireArena, WireBlock } from './wire-arena';

export interface RedisProfileStorageOptions {
  readonly redis: RedisClient;
  /** Key prefix, e.g. `loupe:`. */
  readonly prefix: string;
  /** Groups the profile keys are split into (see ProfileKeys); 1 unless given. */
  readonly groups?: number;
  /** Hash tags in every key, as a Redis Cluster needs; implied by more than one group. */
  readonly hashTags?: boolean;
  /** Seconds a profile lives. */
  readonly lifetime: number;
  /** Most profiles kept, split evenly over the groups; the oldest of a group are removed past its share. */
  readonly maxProfiles: number;
  /** Most bytes of profiles and search rows kept (default 256 MiB), split as `maxProfiles` is. */
  readonly maxBytes?: number;
  /** Where each batch written is announced to live lists (liveChannel); none unless given (readers and tools write nothing to announce). */
  readonly liveChannel?: string;
}

/** Writes that need no outcome asked for later (tests, tools) share one record. */
const ANONYMOUS_BATCH: BatchId = { writer: 'anonymous', number: 0 };

type ScriptRedis = RedisClient & {
  loupeWriteProfiles(...args: (string | number | Buffer)[]): Promise<[number, number]>;
  loupeFindProfiles(...args: (string | number)[]): Promise<(string | number)[]>;
  loupePurgeProfiles(...args: string[]): Promise<number>;
};

/**
 * For profiles not prepared (written by tools and tests; the writer's are bytes already, see
 * prepare): most characters of profiles' JSON one write script call takes as text. The client sends a
 * command of text arguments as one string, which the socket flattens and encodes once: for a
 * batch of some 60 small profiles (150 KB) that costs less than copying each profile's bytes into
 * one buffer, for 256 of them (the kernel's batches under load) about 10 % more instructions per
 * request (bench/micro/instructions.sh /hello/anna debug). Past it, the text is encoded to bytes first.
 */
const TEXT_COMMAND_CHARACTERS = 192 * 1024;

const WRITE_SCRIPT_SHA = createHash('sha1').update(WRITE_SCRIPT).digest('hex');

/** Keys the write script takes (see #writeGroup's arguments). */
const WRITE_SCRIPT_KEYS = 6;

/** A bulk string of RESP. */
function bulk(value: string): string {
  return `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
}

/**
 * The write script called with arguments encoded already: its bytes are the command's (ioredis
 * sends what toWritable answers), its `args` name the keys, as a Redis Cluster routes by them.
 */
class EncodedScriptCommand extends Command {
  readonly #bytes: Buffer;

  constructor(name: 'evalsha' | 'eval', keys: readonly string[], bytes: Buffer) {
    super(name, [name === 'evalsha' ? WRITE_SCRIPT_SHA : WRITE_SCRIPT, keys.length, ...keys]);
    this.#bytes = bytes;
  }

  override toWritable(): Buffer {
    return this.#bytes;
  }
}

/**
 * Profiles in Redis (layout in the README), in groups of keys that share a hash tag on a
 * cluster (`<prefix>{g<n>}:…`; on a single Redis with one group, no tag):
 *   <prefix>profile:<token>          the profile JSON, with a TTL of `lifetime`
 *   <prefix>profiler:index           sorted set token → start time (ms), newest last
 *   <prefix>profiler:meta            hash token → summary JSON (what search filters on)
 *   <prefix>profiler:sizes           hash token → bytes of its profile and search row
 *   <prefix>profiler:bytes           their sum
 *   <prefix>profiler:writer:<id>     the last batch a writer stored: "<number> <stored> <replaced>"
 *   <prefix>profile-dropped:<token>  why a handed-out token has no profile
 * Retention (lifetime, count and bytes) is enforced per group by the write script inside Redis.
 * Reading a profile asks its group; searching, counting and purging ask every group at once.
 */
export class RedisProfileStorage implements ProfileStorage {
  readonly #redis: ScriptRedis;
  readonly #keys: ProfileKeys;
  readonly #lifetime: number;
  readonly #maxProfiles: number;
  readonly #maxBytes: number;
  readonly #liveChannel: string;
  readonly #wire = new WireArena();

  constructor(options: RedisProfileStorageOptions) {
    const redis = options.redis as ScriptRedis;
    // defineCommand sends EVALSHA and falls back to EVAL once when the script is not cached.
    if (typeof redis.loupeWriteProfiles !== 'function') {
      redis.defineCommand('loupeWriteProfiles', { numberOfKeys: 6, lua: WRITE_SCRIPT });
      redis.defineCommand('loupeFindProfiles', { numberOfKeys: 2, lua: FIND_SCRIPT });
      redis.defineCommand('loupePurgeProfiles', { numberOfKeys: 5, lua: PURGE_SCRIPT });
    }
    this.#redis = redis;
    this.#keys = new ProfileKeys({ prefix: options.prefix, groups: options.groups ?? 1, hashTags: options.hashTags ?? false });
    const groups = this.#keys.groups.length;
    this.#lifetime = options.lifetime;
    // Rounded up, so that no group keeps nothing; the groups fill evenly, so the sum stays near the limit.
    this.#maxProfiles = Math.ceil(options.maxProfiles / groups);
    this.#maxBytes = Math.ceil((options.maxBytes ?? PROFILER_DEFAULTS.maxBytes) / groups);
    this.#liveChannel = options.liveChannel ?? '';
  }

  /**
   * One script call per group, all at once. When one fails the others still ran: the error is
   * thrown once all are settled, and batchOutcome tells which parts were stored.
   */
  async write(profiles: readonly StoredProfile[], batch: BatchId = ANONYMOUS_BATCH): Promise<BatchOutcome> {
    if (profiles.length === 0) return { stored: 0, replaced: 0 };
    const now = Date.now();
    const parts = [...this.#keys.split(profiles, (profile) => profile.summary.token)];
    const settled = await Promise.allSettled(parts.map(([keys, part]) => this.#writeGroup(keys, part, batch, now)));
    let stored = 0;
    let replaced = 0;
    for (const result of settled) {
      if (result.status === 'rejected') throw result.reason;
      stored += result.value.stored;
      replaced += result.value.replaced;
    }
    return { stored, replaced };
  }

  async #writeGroup(keys: ProfileGroupKeys, profiles: readonly StoredProfile[], batch: BatchId, now: number): Promise<BatchOutcome> {
    // Prepared profiles (the writer's) are bytes for the wire already. Otherwise a profile given as
    // bytes is written as it is (ioredis copies Buffers into the command), and one given as text is
    // too, unless the command would take too much text (see TEXT_COMMAND_CHARACTERS).
    const scriptKeys = [keys.index, keys.meta, keys.sizes, keys.bytes, keys.writer(batch.writer), keys.profilePrefix];
    const settings = [this.#lifetime, this.#maxProfiles, this.#maxBytes, now, batch.number, this.#liveChannel];
    const blocks = profiles.map(({ json }) => json).filter((json): json is WireBlock => json instanceof WireBlock);
    if (blocks.length === profiles.length) return this.#writeEncoded(scriptKeys, settings, blocks);
    let text = 0;
    for (const { json } of profiles) if (typeof json === 'string') text += json.length;
    const asBytes = text > TEXT_COMMAND_CHARACTERS;
    const args: (string | number | Buffer)[] = [...scriptKeys, ...settings];
    for (const profile of profiles) {
      const { summary, json } = profile;
      const value = json instanceof WireBlock ? json.jsonBytes() : asBytes && typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
      args.push(summary.token, summary.time, searchRowOf(profile), value);
    }
    const [stored, replaced] = await this.#redis.loupeWriteProfiles(...args);
    return { stored, replaced };
  }

  /**
   * The write script called with prepared profiles, their bytes joined after the command's first
   * arguments: EVALSHA, then EVAL once if Redis does not have the script (restarted, flushed, or
   * another node of a cluster).
   */
  async #writeEncoded(keys: readonly string[], settings: readonly (string | number)[], blocks: readonly WireBlock[]): Promise<BatchOutcome> {
    const count = 3 + keys.length + settings.length + 4 * blocks.length;
    const fixed = `${bulk(String(WRITE_SCRIPT_KEYS))}${[...keys, ...settings.map(String)].map(bulk).join('')}`;
    const bySha = `*${count}\r\n${bulk('evalsha')}${bulk(WRITE_SCRIPT_SHA)}${fixed}`;
    const wire = this.#wire.command(bySha, blocks);
    let answered = false;
    try {
      const [stored, replaced] = (await this.#redis.sendCommand(new EncodedScriptCommand('evalsha', keys, wire.bytes))) as [number, number];
      answered = true;
      return { stored, replaced };
    } catch (error) {
      if (!String(error).includes('NOSCRIPT')) throw error;
    } finally {
      wire.done(answered);
    }
    // Rare: the bytes are copied once more, after the script's text.
    const withScript = Buffer.concat([Buffer.from(`*${count}\r\n${bulk('eval')}${bulk(WRITE_SCRIPT)}${fixed}`), wire.bytes.subarray(Buffer.byteLength(bySha))]);
    const [stored, replaced] = (await this.#redis.sendCommand(new EncodedScriptCommand('eval', keys, withScript))) as [number, number];
    return { stored, replaced };
  }

  /** The profile's arguments to the write script, encoded now into pooled bytes (see wire-arena.ts). */
  prepare(profile: StoredProfile): WireBlock {
    const { summary, json } = profile;
    return json instanceof WireBlock ? json : this.#wire.encode(summary.token, summary.time, searchRowOf(profile), json);
  }

  async batchOutcome(batch: BatchId, tokens: readonly string[]): Promise<BatchSettlement> {
    const parts = [...this.#keys.split(tokens, (token) => token)];
    const records = await Promise.all(parts.map(([keys]) => this.#redis.get(keys.writer(batch.writer))));
    let stored = 0;
    let replaced = 0;
    const notStored: string[] = [];
    parts.forEach(([, part], i) => {
      const [number, partStored, partReplaced] = (records[i] ?? '').split(' ').map(Number);
      if (number === batch.number && partStored !== undefined && partReplaced !== undefined) {
        stored += partStored;
        replaced += partReplaced;
      } else notStored.push(...part);
    });
    return { stored, replaced, notStored };
  }

  async markDropped(tokens: readonly string[], reason: string): Promise<void> {
    // One pipeline per group: a cluster runs a pipeline on one node only.
    await Promise.all(
      [...this.#keys.split(tokens, (token) => token)].map(async ([keys, part]) => {
        const pipeline = this.#redis.pipeline();
        for (const token of part) pipeline.set(keys.dropped(token), reason, 'EX', this.#lifetime);
        // A pipeline resolves even when Redis refused its commands (out of memory): each reply says.
        const refused = (await pipeline.exec())?.find(([error]) => error !== null)?.[0];
        if (refused) throw refused;
      }),
    );
  }

  async read(token: string): Promise<ReadResult> {
    const keys = this.#keys.of(token);
    const [json, dropped] = await this.#redis.mget(keys.profile(token), keys.dropped(token));
    if (json !== null && json !== undefined) return { kind: 'found', json };
    if (dropped !== null && dropped !== undefined) return { kind: 'dropped', reason: dropped };
    return { kind: 'missing' };
  }

  async find(criteria: ProfileCriteria): Promise<ProfileSummary[]> {
    return (await this.findRows(criteria)).flatMap((row) => (row.ok ? [row.summary] : []));
  }

  async findRows(criteria: ProfileCriteria): Promise<FoundRow[]> {
    return [...(await this.search(criteria)).rows];
  }

  search(criteria: ProfileCriteria): Promise<SearchResult> {
    const flags = `${criteria.mainRequestsOnly === true ? 'm' : ''}${criteria.hideFavicon === true ? 'f' : ''}${criteria.aborted === true ? 'a' : ''}${criteria.nPlusOne === true ? 'n' : ''}`;
    let status = '';
    if (criteria.statusClass !== undefined) status = `${criteria.statusClass}xx`;
    else if (criteria.statusCode !== undefined) status = String(criteria.statusCode);
    return this.#search(
      [
        criteria.ip ?? '',
        criteria.method?.toUpperCase() ?? '',
        criteria.url ?? '',
        status,
        criteria.route ?? '',
        criteria.start === undefined ? '-inf' : String(criteria.start),
        criteria.end === undefined ? '+inf' : String(criteria.end),
        flags,
        criteria.minQueries === undefined ? '' : String(Math.max(0, Math.floor(criteria.minQueries))),
      ],
      criteria.sort ?? 'time',
      criteria.order ?? 'desc',
      Math.max(0, Math.floor(criteria.offset ?? 0)),
      Math.max(1, Math.min(criteria.limit ?? 50, 1000)),
      Math.max(1, Math.min(criteria.scanLimit ?? SEARCH_SCAN_LIMIT, SEARCH_SCAN_LIMIT)),
    );
  }

  async latest(): Promise<string | null> {
    // A few rows, so that a corrupted newest one does not hide the others; a few hundred read.
    const { rows } = await this.#search(['', '', '', '', '', '-inf', '+inf', 'mr', ''], 'time', 'desc', 0, 10, 500);
    for (const row of rows) if (row.ok) return row.summary.token;
    return null;
  }

  /**
   * Every group searched at once, each reading its share of `bound` (its newest rows: the groups
   * fill evenly, so together they are about the newest `bound`) and answering its first
   * `offset + limit` matches; the pages are merged into one.
   */
  async #search(filters: readonly string[], sort: SearchSort, order: SearchOrder, offset: number, limit: number, bound: number): Promise<SearchResult> {
    const groups = this.#keys.groups;
    // One group pages in Redis itself, as it always did.
    const [from, count] = groups.length === 1 ? [offset, limit] : [0, offset + limit];
    const share = Math.ceil(bound / groups.length);
    const replies = await Promise.all(groups.map((keys) => this.#redis.loupeFindProfiles(keys.index, keys.meta, ...filters, sort, order, from, count, share)));
    return mergeSearchPages(replies.map(readGroupPage), sort, order, offset - from, limit);
  }

  async purge(): Promise<number> {
    const counts = await Promise.all(this.#keys.groups.map((keys) => this.#redis.loupePurgeProfiles(keys.index, keys.meta, keys.sizes, keys.bytes, keys.profilePrefix)));
    return counts.reduce((sum, count) => sum + count, 0);
  }

  async count(): Promise<number> {
    const counts = await Promise.all(this.#keys.groups.map((keys) => this.#redis.zcard(keys.index)));
    return counts.reduce((sum, count) => sum + count, 0);
  }
}
