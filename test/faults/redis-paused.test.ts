import test from 'ava';
import { performance } from 'node:perf_hooks';
import { createDemoApp } from '../../demo/demo-app';
import { createLogger } from '../../src/log/create-logger';
import { spawnServer } from '../helpers/spawn-server';
import { startTestServer, testConfig } from '../helpers/test-server';
import { startThrowawayRedis } from '../helpers/throwaway-redis';
import { allTokensOf, describePages, duplicates, ms, msUntilStoredAgain, percentile, redisPages, storedCounts, tokensOf, tokenStates, traffic, warmUp, assertRedisPagesUnavailable } from './fault-probes';

const PAUSE_MS = 20_000;
/**
 * A page that needs Redis answers within the command timeout (1 s) and this much slack: this
 * process also serves 800 other requests and tries a start meanwhile, on a busy machine.
 */
const BOUND_MS = 2_500;

/** Milliseconds `work` took, with what it answered or why it failed. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const start = performance.now();
  const [result] = await Promise.allSettled([work()]);
  return { ms: performance.now() - start, result: result ?? { status: 'rejected', reason: new Error('no result') } };
}

test(`Redis paused ${PAUSE_MS / 1000} s: plain pages unaffected, Redis pages 503 within the command timeout, start and SIGTERM bounded, nothing lost afterwards`, async (t) => {
  t.timeout(120_000);
  const redis = await startThrowawayRedis(6402);
  const server = await startTestServer({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '1000' });
  const other = await spawnServer({ REDIS_URL: redis.url });
  try {
    const { profiler, prefix, first, cookie, before, last: stored } = await warmUp(server);

    await redis.admin.call('CLIENT', 'PAUSE', String(PAUSE_MS));
    const pausedAt = performance.now();
    const [during, pages, sigterm, start] = await Promise.all([
      traffic(server.port, 800),
      redisPages(server.port, cookie, stored),
      timed(async () => {
        other.child.kill('SIGTERM');
        return other.exited;
      }),
      timed(async () => {
        const app = createDemoApp(testConfig({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '1000' }), createLogger({ level: 'silent', format: 'json' }));
        await app.listen();
        await app.close();
      }),
    ]);
    const stats = profiler.stats();
    t.log(`plain p50/p99 before ${ms(percentile(before, 0.5))}/${ms(percentile(before, 0.99))}, while paused ${ms(percentile(during, 0.5))}/${ms(percentile(during, 0.99))}, worst ${ms(Math.max(...during.map((s) => s.ms)))}`);
    t.log(`Redis pages while paused: ${describePages(pages)}`);
    t.log(`SIGTERM to exit ${ms(sigterm.ms)} (${sigterm.result.status === 'fulfilled' ? `code ${String(sigterm.result.value)}` : 'failed'}); start against the paused Redis ${start.result.status === 'rejected' ? 'refused' : 'served'} after ${ms(start.ms)}`);
    t.log(`counters: dropped ${stats.writer.dropped}, not profiled ${stats.notProfiled}, writer ${stats.writer.state}, last error ${String(stats.writer.lastError)}`);
    t.true(performance.now() - pausedAt < PAUSE_MS, 'everything above was measured while Redis was paused');

    t.true(during.every((sample) => sample.status === 200), 'every plain request is answered');
    t.true(percentile(during, 0.99) < Math.max(percentile(before, 0.99) * 5, 100), 'p99 of plain pages stays low');
    assertRedisPagesUnavailable(t, pages, BOUND_MS);
    t.true(sigterm.ms < 2_500, 'SIGTERM exits within about 2 s');
    t.like(sigterm.result, { status: 'fulfilled', value: 0 });
    t.true(start.ms < 5_000, 'a start against a Redis that does not answer gives up within REDIS_CONNECT_TIMEOUT_MS');
    if (start.result.status === 'rejected') t.regex(String(start.result.reason), /Cannot reach Redis at redis:\/\/127\.0\.0\.1:6402\..*\((Command timed out|no answer within 3000 ms \(REDIS_CONNECT_TIMEOUT_MS\))\)$/s);
    else t.fail('the server started against a Redis that did not answer');

    // The pause ends: storing resumes; every token handed out meanwhile is stored or marked dropped.
    await redis.admin.ping();
    const recovery = await msUntilStoredAgain(server.port, redis.admin, prefix);
    t.log(`profiles stored again ${recovery === undefined ? 'never' : ms(recovery)} after the pause ended`);
    t.not(recovery, undefined, 'a profile is stored again once the pause ends');
    const after = await traffic(server.port, 400);
    await profiler.writer.whenIdle();
    const run = [first, ...before, ...during, ...Object.values(pages), ...after];
    const states = await tokenStates(redis.admin, prefix, tokensOf(during));
    const held = await storedCounts(redis.admin, prefix);
    const settled = profiler.stats().writer;
    t.log(`tokens handed out while paused: ${tokensOf(during).length}, stored ${states.found}, marked dropped ${states.dropped}, lost ${states.lost.length}; duplicated across the run ${duplicates(allTokensOf(run))}`);
    t.log(`stored counter ${settled.stored} vs ${held.indexed} indexed; dropped counter ${settled.dropped} vs ${held.tombstones} tombstones`);
    t.deepEqual(states.lost, [], 'no token lost');
    t.is(duplicates(allTokensOf(run)), 0, 'no token handed out twice');
    t.is(settled.stored, held.indexed, 'the stored counter matches the index');
    t.is(settled.dropped, held.tombstones, 'every dropped profile has its tombstone');
  } finally {
    other.child.kill('SIGKILL');
    await server.close().catch(() => undefined);
    await redis.stop();
  }
});
