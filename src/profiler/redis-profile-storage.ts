import type Redis from 'ioredis';
import { type ProfileSummary } from './profile';
import { parseSummary } from './parse-summary';
import { SEARCH_SCAN_LIMIT, type BatchId, type BatchOutcome, type FoundRow, type ProfileCriteria, type ProfileStorage, type ReadResult, type SearchResult, type StoredProfile } from './profile-storage';
import { PROFILER_DEFAULTS } from './profiler-config';
import { FIND_SCRIPT, PURGE_SCRIPT, WRITE_SCRIPT } from './redis-scripts';

export interface RedisProfileStorageOptions {
  readonly redis: Redis;
  /** Key prefix, e.g. `loupe:`. */
  readonly prefix: string;
  /** Seconds a profile lives. */
  readonly lifetime: number;
  /** Most profiles kept; the oldest are removed past it. */
  readonly maxProfiles: number;
  /** Most bytes of profiles and search rows kept; the oldest are removed past it (default 256 MiB). */
  readonly maxBytes?: number;
}

/** Writes that need no outcome asked for later (tests, tools) share one record. */
const ANONYMOUS_BATCH: BatchId = { writer: 'anonymous', number: 0 };

type ScriptRedis = Redis & {
  loupeWriteProfiles(...args: (string | number | Buffer)[]): Promise<[number, number]>;
  loupeFindProfiles(...args: (string | number)[]): Promise<(string | number)[]>;
  loupePurgeProfiles(...args: (string | number)[]): Promise<number>;
};

/**
 * Profiles in Redis (layout in the README):
 *   <prefix>profile:<token>          the profile JSON, with a TTL of `lifetime`
 *   <prefix>profiler:index           sorted set token → start time (ms), newest last
 *   <prefix>profiler:meta            hash token → summary JSON (what search filters on)
 *   <prefix>profiler:sizes           hash token → bytes of its profile and search row
 *   <prefix>profiler:bytes           their sum
 *   <prefix>profiler:writer:<id>     the last batch a writer stored: "<number> <stored> <replaced>"
 *   <prefix>profile-dropped:<token>  why a handed-out token has no profile
 * Retention (lifetime, count and bytes) is enforced by the write script inside Redis.
 */
export class RedisProfileStorage implements ProfileStorage {
  readonly #redis: ScriptRedis;
  readonly #prefix: string;
  readonly #lifetime: number;
  readonly #maxProfiles: number;
  readonly #maxBytes: number;

  constructor(options: RedisProfileStorageOptions) {
    const redis = options.redis as ScriptRedis;
    // defineCommand sends EVALSHA and falls back to EVAL once when the script is not cached.
    if (typeof redis.loupeWriteProfiles !== 'function') {
      redis.defineCommand('loupeWriteProfiles', { numberOfKeys: 0, lua: WRITE_SCRIPT });
      redis.defineCommand('loupeFindProfiles', { numberOfKeys: 0, lua: FIND_SCRIPT });
      redis.defineCommand('loupePurgeProfiles', { numberOfKeys: 0, lua: PURGE_SCRIPT });
    }
    this.#redis = redis;
    this.#prefix = options.prefix;
    this.#lifetime = options.lifetime;
    this.#maxProfiles = options.maxProfiles;
    this.#maxBytes = options.maxBytes ?? PROFILER_DEFAULTS.maxBytes;
  }

  async write(profiles: readonly StoredProfile[], batch: BatchId = ANONYMOUS_BATCH): Promise<BatchOutcome> {
    if (profiles.length === 0) return { stored: 0, replaced: 0 };
    // A profile given as bytes is written as it is (ioredis copies Buffers into the command).
    const args: (string | number | Buffer)[] = [this.#prefix, this.#lifetime, this.#maxProfiles, this.#maxBytes, Date.now(), batch.writer, batch.number];
    for (const { summary, json } of profiles) args.push(summary.token, summary.time, JSON.stringify(summary), json);
    const [stored, replaced] = await this.#redis.loupeWriteProfiles(...args);
    return { stored, replaced };
  }

  async batchOutcome(batch: BatchId): Promise<BatchOutcome | null> {
    const record = await this.#redis.get(`${this.#prefix}profiler:writer:${batch.writer}`);
    const [number, stored, replaced] = (record ?? '').split(' ').map(Number);
    return number === batch.number && stored !== undefined && replaced !== undefined ? { stored, replaced } : null;
  }

  async markDropped(tokens: readonly string[], reason: string): Promise<void> {
    if (tokens.length === 0) return;
    const pipeline = this.#redis.pipeline();
    for (const token of tokens) pipeline.set(`${this.#prefix}profile-dropped:${token}`, reason, 'EX', this.#lifetime);
    // A pipeline resolves even when Redis refused its commands (out of memory): each reply says.
    const refused = (await pipeline.exec())?.find(([error]) => error !== null)?.[0];
    if (refused) throw refused;
  }

  async read(token: string): Promise<ReadResult> {
    const [json, dropped] = await this.#redis.mget(`${this.#prefix}profile:${token}`, `${this.#prefix}profile-dropped:${token}`);
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
    const flags = `${criteria.mainRequestsOnly === true ? 'm' : ''}${criteria.hideFavicon === true ? 'f' : ''}${criteria.aborted === true ? 'a' : ''}`;
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
        criteria.sort ?? 'time',
        criteria.order ?? 'desc',
      ],
      Math.max(0, Math.floor(criteria.offset ?? 0)),
      Math.max(1, Math.min(criteria.limit ?? 50, 1000)),
      Math.max(1, Math.min(criteria.scanLimit ?? SEARCH_SCAN_LIMIT, SEARCH_SCAN_LIMIT)),
    );
  }

  async latest(): Promise<string | null> {
    // A few rows, so that a corrupted newest one does not hide the others; a few hundred read.
    const { rows } = await this.#search(['', '', '', '', '', '-inf', '+inf', 'mr', 'time', 'desc'], 0, 10, 500);
    for (const row of rows) if (row.ok) return row.summary.token;
    return null;
  }

  async #search(filters: readonly string[], offset: number, limit: number, bound: number): Promise<SearchResult> {
    const [total, scanned, complete, ...flat] = await this.#redis.loupeFindProfiles(this.#prefix, ...filters, offset, limit, bound);
    const rows: FoundRow[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) rows.push(parseSummary(String(flat[i] ?? ''), String(flat[i + 1] ?? '')));
    return { rows, total: Number(total), scanned: Number(scanned), complete: complete === 1 };
  }

  purge(): Promise<number> {
    return this.#redis.loupePurgeProfiles(this.#prefix);
  }

  count(): Promise<number> {
    return this.#redis.zcard(`${this.#prefix}profiler:index`);
  }
}
