import test from 'ava';
import { startTestServer } from '../helpers/test-server';
import { startThrowawayRedis } from '../helpers/throwaway-redis';
import { cookieOf, storedCounts, describePages, duplicates, ms, msUntilStoredAgain, percentile, redisPages, timedGet, tokensOf, tokenStates, traffic, assertRedisPagesUnavailable } from './fault-probes';

/** A page that needs Redis answers within the command timeout (1 s) and this much slack on a busy machine. */
const BOUND_MS = 2_000;

test('Redis killed mid-traffic: plain pages keep their latency, Redis pages answer 503 at once, status answers, storing resumes with no token lost', async (t) => {
  // A throwaway Redis, a server and a few thousand requests: longer than AVA's idle timeout on a busy machine.
  t.timeout(90_000);
  const redis = await startThrowawayRedis(6401);
  const server = await startTestServer({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '1000' });
  try {
    const profiler = server.profiler;
    if (profiler === null) return t.fail('the profiler is on in debug');
    const prefix = server.config.redis.prefix;
    const cookie = cookieOf(await timedGet(server.port, '/session'));
    await traffic(server.port, 400);
    const before = await traffic(server.port, 800);
    const stored = tokensOf(before).at(-1) ?? '';
    await profiler.writer.whenIdle();

    // Killed while requests are in flight: once the first rounds are answered. The requests sent
    // after it was gone had their tokens handed out before the writer noticed, if at all.
    let answered = 0;
    let goneAfter = Infinity;
    let killed: Promise<void> | undefined;
    const during = await traffic(server.port, 1600, '/hello/anna', 8, (done) => {
      answered = done;
      if (done >= 200) killed ??= redis.kill().then(() => void (goneAfter = answered));
    });
    await killed;
    const sentWhileGone = during.slice(goneAfter + 8);
    const outage = await traffic(server.port, 800);
    const pages = await redisPages(server.port, cookie, stored);
    const stats = profiler.stats();
    t.log(`plain p50/p99 before ${ms(percentile(before, 0.5))}/${ms(percentile(before, 0.99))}, while down ${ms(percentile(outage, 0.5))}/${ms(percentile(outage, 0.99))}, worst ${ms(Math.max(...[...during, ...outage].map((s) => s.ms)))}`);
    t.log(`Redis pages while down: ${describePages(pages)}`);
    t.log(`counters: dropped ${stats.writer.dropped}, not profiled ${stats.notProfiled}, writer ${stats.writer.state}`);

    t.true([...during, ...outage].every((sample) => sample.status === 200), 'every plain request is answered');
    t.true(percentile(outage, 0.99) < Math.max(percentile(before, 0.99) * 5, 100), 'p99 of plain pages stays low');
    t.true(outage.every((sample) => sample.token === undefined), 'no token is handed out for a profile that cannot be stored');
    t.true(stats.notProfiled + stats.writer.dropped > 0, 'the drop counters rose');
    assertRedisPagesUnavailable(t, pages, BOUND_MS);

    // Back, empty: the writer reconnects by itself; tokens handed out after the kill are stored or marked dropped.
    await redis.restart();
    const storedBefore = profiler.stats().writer.stored;
    const recovery = await msUntilStoredAgain(server.port, redis.admin, prefix);
    t.log(`profiles stored again ${recovery === undefined ? 'never' : ms(recovery)} after Redis restarted`);
    t.not(recovery, undefined, 'a profile is stored again once Redis is back');
    const after = await traffic(server.port, 400);
    await profiler.writer.whenIdle();
    const handedOut = tokensOf([...sentWhileGone, ...outage, ...after]);
    const states = await tokenStates(redis.admin, prefix, handedOut);
    const held = await storedCounts(redis.admin, prefix);
    const settled = profiler.stats().writer;
    t.log(`tokens handed out after the kill: ${handedOut.length}, stored ${states.found}, marked dropped ${states.dropped}, lost ${states.lost.length}; duplicated across the run ${duplicates(tokensOf([...before, ...during, ...outage, ...after]))}`);
    t.log(`since the restart: stored counter ${settled.stored - storedBefore} vs ${held.indexed} indexed; dropped counter ${settled.dropped} vs ${held.tombstones} tombstones`);
    t.deepEqual(states.lost, [], 'no token lost');
    t.is(settled.stored - storedBefore, held.indexed, 'the stored counter matches the index (Redis came back empty)');
    t.is(settled.dropped, held.tombstones, 'every dropped profile has its tombstone');
    t.is(duplicates(tokensOf([...before, ...during, ...outage, ...after])), 0, 'no token handed out twice');
    t.is((await timedGet(server.port, '/session', { cookie })).status, 200, 'sessions work again');
  } finally {
    await server.close().catch(() => undefined);
    await redis.stop();
  }
});
