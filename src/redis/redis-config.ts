import { type RedisConfigInput } from '../config/config-input';
import { pickInteger, pickString, invalidGiven, invalidSetting, type Setting } from '../config/config-values';
import { invalid, type Env } from '../config/env-values';
import { hideRedisPassword } from './hide-redis-password';
import { CLUSTER_URL, formatClusterNodes, parseClusterNodes, parseClusterUrl, type RedisClusterConfig } from './cluster-nodes';

/** How long Loupe waits for Redis: every command, and the connection at start. */
export interface RedisTimeouts {
  /** Milliseconds a command may take before it fails (ioredis `commandTimeout`). */
  readonly commandTimeoutMs: number;
  /** Milliseconds a new connection may take to answer, handshake included; bounds the start. */
  readonly connectTimeoutMs: number;
}

/** Where Loupe's Redis is, how its keys are named, and how long Loupe waits for it. */
export interface RedisConfig extends RedisTimeouts {
  /** `redis://…` or `rediss://…` for one Redis; `redis+cluster://host:port,…` for a cluster. */
  readonly url: string;
  /** Prefix of every Redis key Loupe writes, so several apps (or test runs) can share one Redis. */
  readonly prefix: string;
  /** The cluster's nodes and credentials when `url` names a Redis Cluster, else `null`. */
  readonly cluster: RedisClusterConfig | null;
  /**
   * How many groups the profile keys are split into (PROFILER_REDIS_GROUPS): each group's keys
   * share a hash tag, so that a script touching them runs on one slot, and the groups spread the
   * profiles over a cluster's masters. 1 on a single Redis (keys without tags), 16 on a cluster.
   */
  readonly profileGroups: number;
}

export const REDIS_TIMEOUT_DEFAULTS: RedisTimeouts = Object.freeze({ commandTimeoutMs: 1_000, connectTimeoutMs: 3_000 });

/** Profile key groups on a cluster unless PROFILER_REDIS_GROUPS says otherwise: enough to spread over a few masters. */
export const CLUSTER_PROFILE_GROUPS = 16;

/** The URL and, for a cluster, its nodes: from REDIS_CLUSTER_NODES or REDIS_URL, never both. */
function readTarget(env: Env): { url: string; cluster: RedisClusterConfig | null } {
  const nodes = env['REDIS_CLUSTER_NODES'];
  const url = env['REDIS_URL'];
  if (nodes !== undefined && nodes.trim() !== '') {
    if (url !== undefined && url !== '') throw invalid('REDIS_CLUSTER_NODES', nodes, 'either REDIS_CLUSTER_NODES or REDIS_URL, not both');
    const parsed = Object.freeze(parseClusterNodes('REDIS_CLUSTER_NODES', nodes));
    // Credentials and TLS need the URL form (redis+cluster://:password@host:port,…).
    return { url: `redis+cluster://${formatClusterNodes(parsed)}`, cluster: Object.freeze({ nodes: parsed, username: null, password: null, tls: false }) };
  }
  // An empty REDIS_URL means "no Redis" to an application (see noRedisWanted); what reads Redis needs one.
  if (url !== undefined && url.trim() === '') throw invalid('REDIS_URL', url, 'a redis://, rediss:// or redis+cluster:// URL: this reads Redis, and an empty REDIS_URL names none');
  const given = url ?? DEFAULT_REDIS_URL;
  if (CLUSTER_URL.test(given)) return { url: given, cluster: parseClusterUrl('REDIS_URL', given) };
  if (!/^rediss?:\/\//.test(given)) throw invalid('REDIS_URL', hideRedisPassword(given), 'a redis://, rediss:// or redis+cluster:// URL');
  return { url: given, cluster: null };
}

/** Where Loupe looks for Redis when REDIS_URL is not set at all. */
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * Whether the environment says "no Redis": REDIS_URL set, but empty, and no REDIS_CLUSTER_NODES.
 * Unset, REDIS_URL still means the Redis on 127.0.0.1:6379, as `make run` and the demo expect.
 */
export function noRedisWanted(env: Env): boolean {
  const url = env['REDIS_URL'];
  return url !== undefined && url.trim() === '' && (env['REDIS_CLUSTER_NODES'] ?? '').trim() === '';
}

/** The settings of RedisConfigInput: their paths in code and their variables. */
const REDIS_SETTINGS = {
  url: { path: 'config.redis.url', variable: 'REDIS_URL' },
  prefix: { path: 'config.redis.prefix', variable: 'REDIS_PREFIX' },
  profileGroups: { path: 'config.redis.profileGroups', variable: 'PROFILER_REDIS_GROUPS' },
  commandTimeoutMs: { path: 'config.redis.commandTimeoutMs', variable: 'REDIS_COMMAND_TIMEOUT_MS' },
  connectTimeoutMs: { path: 'config.redis.connectTimeoutMs', variable: 'REDIS_CONNECT_TIMEOUT_MS' },
} as const satisfies Record<keyof RedisConfigInput, Setting>;

/** A URL given in code, checked as REDIS_URL is, its errors naming `config.redis.url`. */
function givenTarget(url: unknown): { url: string; cluster: RedisClusterConfig | null } {
  const expected = 'a redis://, rediss:// or redis+cluster:// URL';
  if (typeof url !== 'string') throw invalidGiven(REDIS_SETTINGS.url, url, expected);
  if (CLUSTER_URL.test(url)) return { url, cluster: parseClusterUrl('config.redis.url', url) };
  if (!/^rediss?:\/\//.test(url)) throw invalidGiven(REDIS_SETTINGS.url, hideRedisPassword(url), `${expected} (or redis: null for none)`);
  return { url, cluster: null };
}

/**
 * The environment without an empty REDIS_URL: a `redis` object given in code asks for a Redis, so
 * the empty variable that would mean "none" is read as unset (the default URL).
 */
export function withoutEmptyUrl(env: Env): Env {
  if (!noRedisWanted(env)) return env;
  const { REDIS_URL: _empty, ...rest } = env;
  return rest;
}

/**
 * Loupe's Redis: each key given in code, else its variable (REDIS_URL or REDIS_CLUSTER_NODES,
 * REDIS_PREFIX, PROFILER_REDIS_GROUPS, the timeouts), else the default.
 */
export function resolveRedisConfig(given: RedisConfigInput, env: Env): RedisConfig {
  const { url, cluster } = given.url === undefined ? readTarget(env) : givenTarget(given.url);
  const prefix = pickString(given.prefix, REDIS_SETTINGS.prefix, env, 'loupe:');
  // A brace in the prefix would end or replace the hash tag Loupe puts after it.
  if (cluster !== null && /[{}]/.test(prefix)) throw invalidSetting(REDIS_SETTINGS.prefix, given.prefix !== undefined, prefix, 'no "{" or "}" with a Redis Cluster (Loupe adds its own hash tags after the prefix)');
  return Object.freeze({
    url,
    prefix,
    cluster,
    profileGroups: pickInteger(given.profileGroups, REDIS_SETTINGS.profileGroups, env, cluster === null ? 1 : CLUSTER_PROFILE_GROUPS, 1, 1024),
    commandTimeoutMs: pickInteger(given.commandTimeoutMs, REDIS_SETTINGS.commandTimeoutMs, env, REDIS_TIMEOUT_DEFAULTS.commandTimeoutMs, 50, 60_000),
    connectTimeoutMs: pickInteger(given.connectTimeoutMs, REDIS_SETTINGS.connectTimeoutMs, env, REDIS_TIMEOUT_DEFAULTS.connectTimeoutMs, 100, 60_000),
  });
}

/** REDIS_URL (or REDIS_CLUSTER_NODES), REDIS_PREFIX, PROFILER_REDIS_GROUPS and the timeouts: all the CLI needs. */
export function readRedisConfig(env: Env): RedisConfig {
  return resolveRedisConfig({}, env);
}
