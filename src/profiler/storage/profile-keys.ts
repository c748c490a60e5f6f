import { type RedisConfig } from '../../redis/redis-config';

/**
 * The keys of one group of profiles. On a single Redis with one group they are today's
 * `<prefix>profiler:index` and so on; with hash tags every key of group n carries `{g<n>}`, so
 * that the scripts, which touch a group's keys together, run on the one slot they share.
 */
export interface ProfileGroupKeys {
  /** The group's number, from 0. */
  readonly group: number;
  /** Sorted set token → start time (ms). */
  readonly index: string;
  /** Hash token → summary JSON, what search filters on. */
  readonly meta: string;
  /** Hash token → bytes of its profile and summary. */
  readonly sizes: string;
  /** Their sum. */
  readonly bytes: string;
  /**
   * What a token is appended to for its profile's key. The write and purge scripts take it as a
   * key: the profiles that retention removes are only known inside the script, and this names
   * their slot.
   */
  readonly profilePrefix: string;
  profile(token: string): string;
  /** The tombstone of a handed-out token that has no profile. */
  dropped(token: string): string;
  /** The last batch a writer stored in this group: `<number> <stored> <replaced>`. */
  writer(id: string): string;
}

/** How the profile keys are laid out: the prefix, the number of groups, and whether they carry hash tags. */
export interface ProfileKeyLayout {
  readonly prefix: string;
  /** 1 keeps every profile in one set of keys; a cluster spreads them over several. */
  readonly groups: number;
  /** Hash tags `{g<n>}` in every key: needed on a cluster, implied by more than one group. */
  readonly hashTags: boolean;
}

/** The layout a Redis configuration implies: its groups, tagged on a cluster. */
export function profileKeyLayout(redis: RedisConfig): ProfileKeyLayout {
  return { prefix: redis.prefix, groups: redis.profileGroups, hashTags: redis.cluster !== null };
}

function groupKeys(base: string, group: number): ProfileGroupKeys {
  const profilePrefix = `${base}profile:`;
  return Object.freeze({
    group,
    index: `${base}profiler:index`,
    meta: `${base}profiler:meta`,
    sizes: `${base}profiler:sizes`,
    bytes: `${base}profiler:bytes`,
    profilePrefix,
    profile: (token: string) => `${profilePrefix}${token}`,
    dropped: (token: string) => `${base}profile-dropped:${token}`,
    writer: (id: string) => `${base}profiler:writer:${id}`,
  });
}

/**
 * Every Redis key of the profiler. A token belongs to group `parseInt(token, 16) % groups`:
 * tokens are a permutation of a counter, so the groups fill evenly.
 */
export class ProfileKeys {
  /** Every group's keys, by number. */
  readonly groups: readonly ProfileGroupKeys[];
  /** The token allocation hash (sequence, permutation key, check flag), tagged `{tokens}` on its own. */
  readonly tokens: string;

  constructor(layout: ProfileKeyLayout) {
    if (!Number.isSafeInteger(layout.groups) || layout.groups < 1) throw new RangeError(`profile key groups must be a positive integer, not ${layout.groups}`);
    const tagged = layout.hashTags || layout.groups > 1;
    this.groups = Object.freeze(Array.from({ length: layout.groups }, (_, n) => groupKeys(tagged ? `${layout.prefix}{g${n}}:` : layout.prefix, n)));
    this.tokens = tagged ? `${layout.prefix}{tokens}:profiler:tokens` : `${layout.prefix}profiler:tokens`;
  }

  /**
   * The keys of `token`'s group. A token that is not hexadecimal (typed into a URL) was never
   * handed out: it is looked up in group 0, where it is not.
   */
  of(token: string): ProfileGroupKeys {
    const value = /^[0-9a-f]{1,13}$/i.test(token) ? parseInt(token, 16) : 0;
    const keys = this.groups[value % this.groups.length];
    if (keys === undefined) throw new RangeError(`no group for token ${token}`);
    return keys;
  }

  /** `tokens` by group, in the order given within each; groups without a token are left out. */
  split<T>(items: readonly T[], tokenOf: (item: T) => string): Map<ProfileGroupKeys, T[]> {
    const byGroup = new Map<ProfileGroupKeys, T[]>();
    for (const item of items) {
      const keys = this.of(tokenOf(item));
      const list = byGroup.get(keys);
      if (list === undefined) byGroup.set(keys, [item]);
      else list.push(item);
    }
    return byGroup;
  }
}
