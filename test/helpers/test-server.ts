import { Cluster, type Redis } from 'ioredis';
import { createDemoApp, type DemoOptions } from '../../demo/demo-app';
import { readConfig, type Config } from '../../src/config/config';
import { createLogger } from '../../src/log/create-logger';
import { type Loupe } from '../../src/loupe/create-loupe';
import { connectRedis } from '../../src/redis/connect-redis';
import { type RedisClient } from '../../src/redis/redis-client';
import { type RedisConfig } from '../../src/redis/redis-config';
import { TEST_CLIENT_TIMEOUTS, testKeyPrefix } from './test-redis';

/** A configuration with Redis: what the tests of Redis-backed features run with. */
export type RedisBackedConfig = Config & { readonly redis: RedisConfig };

/** `config`'s Redis; a test that reads it runs with Redis, so `null` is a mistake of the test. */
export function redisConfigOf(config: Config): RedisConfig {
  if (config.redis === null) throw new Error('This test needs Redis, but its configuration has none (REDIS_URL is empty).');
  return config.redis;
}

export interface TestServer extends Loupe {
  readonly config: RedisBackedConfig;
  readonly url: string;
  readonly port: number;
  /** A client of the same Redis (or cluster), for the test to look at what the application stored. */
  readonly redis: RedisClient;
}

/**
 * The test configuration: debug on, a free port, a key prefix of its own, `env` applied over it.
 * Redis commands may take 5 s rather than 1: a test suite on a loaded machine must not see a 503
 * where it tests something else; the fault tests set the default (1000) back where they test it.
 */
export function testConfig(env: Readonly<Record<string, string>> = {}): RedisBackedConfig {
  const config = readConfig({ ...process.env, APP_ENV: 'test', APP_DEBUG: '1', HOST: '127.0.0.1', PORT: '0', REDIS_PREFIX: testKeyPrefix(), REDIS_COMMAND_TIMEOUT_MS: '5000', ...env });
  return { ...config, redis: redisConfigOf(config) };
}

/** Unlinks every key under `prefix` on one server (a single Redis, or one master of a cluster), one key at a time. */
async function unlinkOn(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 10_000);
    cursor = next;
    // One key per command: a cluster refuses a command whose keys are in different slots.
    if (keys.length > 0) await keys.reduce((pipeline, key) => pipeline.unlink(key), redis.pipeline()).exec();
  } while (cursor !== '0');
}

/** Deletes every key under `prefix`, after the application closed (its writer may write while stopping); on a cluster, on every master. */
export async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = await connectRedis(redisUrl, 'loupe-test-cleanup', TEST_CLIENT_TIMEOUTS);
  try {
    for (const node of redis instanceof Cluster ? redis.nodes('master') : [redis]) await unlinkOn(node, prefix);
  } finally {
    redis.disconnect();
  }
}

/** Deletes the keys an application of `config` wrote in its Redis; nothing without Redis. */
export async function deleteAppKeys(config: Config): Promise<void> {
  if (config.redis !== null) await deleteKeys(config.redis.url, config.redis.prefix);
}

/**
 * The demo application listening on a free port, against the real Redis at REDIS_URL, with a key
 * prefix of its own so that test files never see each other's keys. Fails with how to start
 * Redis when none answers. `options`: collectors, panels or listeners added as an application adds
 * its own, and the demo's own settings (`databaseUrl`: see useTestPostgres).
 */
export async function startTestServer(env: Readonly<Record<string, string>> = {}, options: DemoOptions = {}): Promise<TestServer> {
  const config = testConfig(env);
  const app = createDemoApp(config, createLogger({ level: 'silent', format: 'json' }), options);
  const { url, port } = await app.listen();
  const redis = await connectRedis(config.redis.url, 'loupe-test', TEST_CLIENT_TIMEOUTS);
  return {
    url,
    port,
    redis,
    config,
    logger: app.logger,
    get profiler() {
      return app.profiler;
    },
    get activeRequests() {
      return app.activeRequests;
    },
    get handledRequests() {
      return app.handledRequests;
    },
    listen: () => app.listen(),
    inject: (request) => app.inject(request),
    listenerTable: () => app.listenerTable(),
    whenIdle: () => app.whenIdle(),
    close: async () => {
      await app.close();
      redis.disconnect();
      await deleteKeys(config.redis.url, config.redis.prefix);
    },
  };
}
