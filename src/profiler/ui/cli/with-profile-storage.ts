import { PROFILER_DEFAULTS } from '../../profiler-config';
import { readRedisConfig, type RedisConfig } from '../../../redis/redis-config';
import { type ProfileStorage } from '../../storage/profile-storage';
import { profileKeyLayout } from '../../storage/profile-keys';
import { RedisProfileStorage } from '../../storage/redis-profile-storage';
import { closeRedis, connectRedis } from '../../../redis/connect-redis';
import { hideRedisPassword } from '../hide-redis-password';
import { type ConnectionFlags } from '../../../cli/parse-command-args';

/** The profile storage the server writes to, and where it is. */
export interface OpenedStorage {
  readonly storage: ProfileStorage;
  /** For messages: the Redis URL with its password hidden. */
  readonly redisUrl: string;
  readonly prefix: string;
}

/**
 * The Redis configuration of the environment with `--redis-url` and `--prefix` applied. Through
 * readRedisConfig, so that a flag is validated exactly as the variable it overrides; nothing else
 * is read, so the CLI works whatever APP_ENV or APP_SECRET say.
 */
export function connectionConfig(env: Readonly<Record<string, string | undefined>>, flags: ConnectionFlags): RedisConfig {
  return readRedisConfig({
    ...env,
    // The flag names one Redis or cluster: it replaces REDIS_CLUSTER_NODES as well.
    ...(flags.redisUrl === undefined ? {} : { REDIS_URL: flags.redisUrl, REDIS_CLUSTER_NODES: undefined }),
    ...(flags.prefix === undefined ? {} : { REDIS_PREFIX: flags.prefix }),
  });
}

/**
 * Runs `use` with the profile storage of the Redis the server uses: REDIS_URL and REDIS_PREFIX
 * as `readRedisConfig` reads them from the environment, overridden by `--redis-url` and `--prefix`;
 * then quits the connection, so that the process can exit. Throws the LoupeError of `connectRedis`, which says how to start a
 * Redis, when none answers.
 */
export async function withProfileStorage<T>(
  env: Readonly<Record<string, string | undefined>>,
  flags: ConnectionFlags,
  use: (opened: OpenedStorage) => Promise<T>,
): Promise<T> {
  const config = connectionConfig(env, flags);
  const redis = await connectRedis(config.url, 'loupe-cli', config);
  // The CLI reads and purges; retention only applies to writes, so the defaults serve.
  const storage = new RedisProfileStorage({
    redis,
    // The server's groups: a profile is looked for in its token's group, a search asks them all.
    ...profileKeyLayout(config),
    lifetime: PROFILER_DEFAULTS.lifetime,
    maxProfiles: PROFILER_DEFAULTS.maxProfiles,
  });
  try {
    return await use({ storage, redisUrl: hideRedisPassword(config.url), prefix: config.prefix });
  } finally {
    await closeRedis(redis);
  }
}
