import { randomBytes } from 'node:crypto';
import { startApplication, type RunningApplication } from '../../src/app/start-application';
import { readConfig, type Config } from '../../src/config/config';

export interface TestServer extends RunningApplication {
  readonly config: Config;
}

/**
 * The real server on a free port, against the real Redis at REDIS_URL, with a key prefix of its
 * own so that test files never see each other's keys. Fails with how to start Redis when none answers.
 */
export async function startTestServer(env: Readonly<Record<string, string>> = {}): Promise<TestServer> {
  const config = readConfig({
    ...process.env,
    APP_ENV: 'test',
    APP_DEBUG: '1',
    HOST: '127.0.0.1',
    PORT: '0',
    REDIS_PREFIX: `loupe-test:${randomBytes(4).toString('hex')}:`,
    ...env,
  });
  const app = await startApplication(config);
  return { ...app, config, close: async () => {
    const keys = await app.redis.keys(`${config.redisPrefix}*`);
    if (keys.length > 0) await app.redis.del(...keys);
    await app.close();
  } };
}
