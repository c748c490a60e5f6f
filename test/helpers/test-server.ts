import { startApplication, type RunningApplication } from '../../src/app/start-application';
import { readConfig, type Config } from '../../src/config/config';
import { type ProfilerParts } from '../../src/profiler/profiler';
import { connectRedis } from '../../src/redis/connect-redis';
import { testKeyPrefix } from './test-redis';

export interface TestServer extends RunningApplication {
  readonly config: Config;
}

/**
 * The real server on a free port, against the real Redis at REDIS_URL, with a key prefix of its
 * own so that test files never see each other's keys. Fails with how to start Redis when none answers.
 * `profilerExtras`: collectors and panels added after Loupe's, as an application adds its own.
 */
export async function startTestServer(env: Readonly<Record<string, string>> = {}, profilerExtras: Partial<ProfilerParts> = {}): Promise<TestServer> {
  const config = readConfig({
    ...process.env,
    APP_ENV: 'test',
    APP_DEBUG: '1',
    HOST: '127.0.0.1',
    PORT: '0',
    REDIS_PREFIX: testKeyPrefix(),
    ...env,
  });
  const app = await startApplication(config, undefined, profilerExtras);
  return {
    ...app,
    config,
    close: async () => {
      await app.close();
      // Deleted after closing: the writer and the token allocator may still write while stopping.
      const redis = await connectRedis(config.redisUrl, 'loupe-test-cleanup');
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${config.redisPrefix}*`, 'COUNT', 10_000);
        cursor = next;
        if (keys.length > 0) await redis.unlink(...keys);
      } while (cursor !== '0');
      redis.disconnect();
    },
  };
}
