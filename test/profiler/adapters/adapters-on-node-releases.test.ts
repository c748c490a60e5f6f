import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { adapterRedisEnv } from '../../helpers/adapter-test-bed';
import { nodeRelease, NODE_RELEASES } from '../../helpers/node-24';
import { deleteKeys } from '../../helpers/test-server';
import { testKeyPrefix } from '../../helpers/test-redis';

/*
 * The adapters on every Node that Loupe supports besides the one running the suite (Node 22 and
 * 24, unpacked from the npm registry): Express, Fastify, Hono and node:http each answer with a
 * token whose profile holds the route and the SQL the handler ran, and no native addon is loaded,
 * so they work where uWebSockets.js' binary cannot load (Node 22+ needs glibc 2.38; this machine
 * has 2.36).
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const run = promisify(execFile);

interface FixtureOutput {
  readonly node: string;
  readonly adapters: readonly { adapter: string; status: number; token: string | null; route: string | null; queries: readonly string[] }[];
  readonly nativeAddons: readonly string[];
}

for (const major of Object.keys(NODE_RELEASES).map(Number) as (keyof typeof NODE_RELEASES)[]) {
  test(`on Node ${major}, the Express, Fastify, Hono and node:http adapters profile a request with its route and SQL, loading no native addon`, async (t) => {
    t.timeout(240_000);
    const node = await nodeRelease(major);
    const prefix = testKeyPrefix();
    try {
      const { stdout } = await run(node, ['-r', path.join(ROOT, 'test', 'helpers', 'register-typescript.js'), path.join(ROOT, 'test', 'fixtures', 'adapters-on-this-node.ts')], {
        cwd: ROOT,
        env: adapterRedisEnv(prefix),
        timeout: 180_000,
      });
      const output = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as FixtureOutput;
      t.true(output.node.startsWith(`v${major}.`), output.node);
      t.deepEqual(output.adapters.map(({ adapter }) => adapter), ['express', 'fastify', 'hono', 'node']);
      for (const result of output.adapters) {
        t.is(result.status, 200, result.adapter);
        t.regex(result.token ?? '', /^[0-9a-f]{6}$/, result.adapter);
        t.deepEqual(result.queries, ['SELECT $1::int AS id'], `${result.adapter}: the handler's query is in its profile`);
      }
      // node:http knows no routes: the profile of a plain handler names none.
      t.deepEqual(output.adapters.map(({ route }) => route), ['GET /users/:id', 'GET /users/:id', 'GET /users/:id', null]);
      t.deepEqual(output.nativeAddons, []);
    } finally {
      await deleteKeys(REDIS_URL, prefix);
    }
  });
}
