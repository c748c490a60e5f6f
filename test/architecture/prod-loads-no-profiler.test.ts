import test from 'ava';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { useTestRedis } from '../helpers/test-redis';
import { TYPESCRIPT } from '../helpers/typescript-loader';

const run = promisify(execFile);
// With debug the fixture starts the profiler, whose token allocator writes under the prefix: deleted after the test.
const redisForTests = useTestRedis(test, 'loupe-test-prod-loads-no-profiler');
const FIXTURE = path.resolve(__dirname, '..', 'fixtures', 'loaded-profiler-modules.ts');

/** The modules of src/profiler/ an application loads with `env`, relative to src/profiler/. */
async function loadedModules(env: Readonly<Record<string, string>>): Promise<string[]> {
  const { stdout } = await run(process.execPath, [...TYPESCRIPT, FIXTURE], {
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...process.env, REDIS_PREFIX: redisForTests.prefix(), ...env },
  });
  return stdout.split('\n').filter((line) => line !== '');
}

/** What the configuration needs of the profiler (its entry, its settings and their checks), and the redaction the terminal log shares with it. */
const CONFIGURATION = /^(index|profiler-config|read-profiler-config|profiler-paths|check-profiler-parts|collect\/(secret-names|redaction-policy)|explain\/(explain-config|read-explain-config))\.ts$/;

test('without debug an application loads nothing of the profiler but its entry and its configuration; with debug the plugin loads its parts', async (t) => {
  t.timeout(120_000);
  const prod = await loadedModules({ APP_ENV: 'prod', APP_DEBUG: '0', APP_SECRET: 'prod-secret' });
  t.true(prod.includes('index.ts'));
  t.deepEqual(prod.filter((file) => !CONFIGURATION.test(file)), [], `prod loaded: ${prod.join(', ')}`);
  const debug = await loadedModules({ APP_ENV: 'dev', APP_DEBUG: '1' });
  for (const part of ['profiler-plugin.ts', 'storage/redis-profile-storage.ts', 'write/profile-writer.ts', 'collect/profiler-listener.ts', 'ui/panel/profiler-routes.ts', 'app-io/capture-http.ts']) t.true(debug.includes(part), `debug did not load ${part}`);
});
