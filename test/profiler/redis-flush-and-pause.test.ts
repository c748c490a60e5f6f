import test from 'ava';
import http from 'node:http';
import type Redis from 'ioredis';
import { connectRedis } from '../../src/redis/connect-redis';
import { startThrowawayRedis } from '../helpers/throwaway-redis';
import { asSingleRedis, TEST_CLIENT_TIMEOUTS } from '../helpers/test-redis';
import { startTestServer, type TestServer } from '../helpers/test-server';

// Both tests flush or pause a Redis, so each runs against a redis-server of its own.

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
test.after.always(() => agent.destroy());

function tokenOf(port: number, path: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(typeof res.headers['x-debug-token'] === 'string' ? res.headers['x-debug-token'] : undefined));
      })
      .on('error', reject);
  });
}

/** Sends `count` requests to a routed page, 8 at a time; answers the tokens handed out. */
async function traffic(port: number, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 8) {
    for (const token of await Promise.all(Array.from({ length: 8 }, () => tokenOf(port, '/hello/anna')))) if (token !== undefined) tokens.push(token);
  }
  return tokens;
}

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function withServer(run: (server: TestServer, admin: Redis) => Promise<void>): Promise<void> {
  const own = await startThrowawayRedis(6407);
  const admin = asSingleRedis(await connectRedis(own.url, 'loupe-test-admin', TEST_CLIENT_TIMEOUTS));
  // Commands time out after 400 ms, so the profile writer's batches after 2 s (five times as long).
  const server = await startTestServer({ REDIS_URL: own.url, REDIS_COMMAND_TIMEOUT_MS: '400' });
  try {
    await run(server, admin);
  } finally {
    await server.close().catch(() => undefined);
    admin.disconnect();
    await own.stop();
  }
}

test.serial('FLUSHALL mid-run: no token is handed to two requests, and profiles are stored again', async (t) => {
  await withServer(async (server, admin) => {
    const before = await traffic(server.port, 2_000);
    await admin.flushall();
    const after = await traffic(server.port, 2_000);
    const all = [...before, ...after];
    const repeated = all.length - new Set(all).size;
    t.log(`${before.length} tokens before FLUSHALL, ${after.length} after; handed to two requests: ${repeated}`);
    t.true(after.length > 1_500, 'tokens are still handed out after the flush');
    t.is(repeated, 0);
    const last = after.at(-1) ?? '';
    await until(async () => (await server.profiler?.storage.read(last))?.kind === 'found', 'the last profile is stored');
  });
});

test.serial('a batch that times out while Redis is paused but runs afterwards is counted stored, once; the counters match what Redis holds', async (t) => {
  await withServer(async (server, admin) => {
    const profiler = server.profiler;
    if (profiler === null) return t.fail('the profiler is on in debug');
    const prefix = server.config.redis.prefix;
    const tokens = await traffic(server.port, 200);
    await until(() => profiler.writer.stats.stored === tokens.length, 'the first profiles are stored');
    // Longer than the writer's 2 s command timeout: the batch in flight times out, then runs.
    await admin.call('CLIENT', 'PAUSE', '3500', 'ALL');
    tokens.push(...(await traffic(server.port, 400)));
    await until(() => profiler.writer.stats.lastError !== null, 'a write timed out');
    tokens.push(...(await traffic(server.port, 200)));
    const stats = profiler.writer.stats;
    await until(() => stats.unconfirmed === 0 && stats.queued === 0 && stats.state === 'idle', 'the writer settled every batch');
    tokens.push(...(await traffic(server.port, 200)));
    await until(() => stats.queued === 0 && stats.state === 'idle', 'the writer stored the last profiles');
    await server.whenIdle();
    const held = await admin.zcard(`${prefix}profiler:index`);
    const tombstones = (await admin.keys(`${prefix}profile-dropped:*`)).length;
    t.log(`${tokens.length} tokens handed out; writer counted stored ${stats.stored}, dropped ${stats.dropped}, replaced ${stats.replaced}; Redis holds ${held} profiles and ${tombstones} tombstones; last error: ${stats.lastError}`);
    t.is(stats.stored, held, 'stored counts exactly what Redis holds');
    t.is(stats.dropped, tokens.length - held, 'dropped counts exactly the rest');
    t.is(stats.replaced, 0);
    t.is(tombstones, stats.dropped, 'every dropped token has its tombstone');
    t.true(stats.stored > 400, 'profiles are stored before and after the pause');
  });
});
