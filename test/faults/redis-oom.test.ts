import test from 'ava';
import { startTestServer } from '../helpers/test-server';
import { startThrowawayRedis } from '../helpers/throwaway-redis';
import { allTokensOf, describePages, duplicates, jsonOf, ms, msUntilStoredAgain, percentile, redisPages, storedCounts, timedGet, tokensOf, tokenStates, traffic, warmUp } from './fault-probes';

/** A page that needs Redis answers within the command timeout (1 s) and this much slack on a busy machine. */
const BOUND_MS = 2_000;

test('Redis out of memory (maxmemory 1mb, noeviction): reads still served, writes answer 503 at once, plain pages unaffected, storing resumes with nothing lost', async (t) => {
  // A throwaway Redis, a server and a few thousand requests: longer than AVA's idle timeout on a busy machine.
  t.timeout(90_000);
  const redis = await startThrowawayRedis(6403);
  const server = await startTestServer({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '1000' });
  try {
    const { profiler, prefix, first, cookie, before, last: stored } = await warmUp(server);

    await redis.admin.config('SET', 'maxmemory-policy', 'noeviction');
    await redis.admin.config('SET', 'maxmemory', '1mb');
    await t.throwsAsync(redis.admin.set('loupe-fault-probe', 'x'), { message: /^OOM/ }, 'Redis refuses writes');
    const during = await traffic(server.port, 800);
    const pages = await redisPages(server.port, cookie, stored);
    const stats = profiler.stats();
    t.log(`plain p50/p99 before ${ms(percentile(before, 0.5))}/${ms(percentile(before, 0.99))}, out of memory ${ms(percentile(during, 0.5))}/${ms(percentile(during, 0.99))}, worst ${ms(Math.max(...during.map((s) => s.ms)))}`);
    t.log(`Redis pages out of memory: ${describePages(pages)}`);
    t.log(`counters: dropped ${stats.writer.dropped}, not profiled ${stats.notProfiled}, writer ${stats.writer.state}, last error ${String(stats.writer.lastError)}`);

    t.true(during.every((sample) => sample.status === 200), 'every plain request is answered');
    t.true(percentile(during, 0.99) < Math.max(percentile(before, 0.99) * 5, 100), 'p99 of plain pages stays low');
    for (const [name, sample] of Object.entries(pages)) t.true(sample.ms < BOUND_MS, `${name} answered in ${ms(sample.ms)}`);
    t.is(pages.session.status, 503, 'a session that cannot be saved is a 503');
    t.regex(pages.session.body, /LOUPE_ERR_SESSION_NOT_SAVED|The session could not be saved/);
    t.is(pages.newSession.status, 503);
    t.like(jsonOf(pages.status), { storage: { reachable: true, error: null } });
    t.is(pages.profile.status, 200, 'stored profiles can still be read');
    t.is(pages.latest.status, 200);
    t.is(pages.search.status, 200);
    t.true(stats.writer.dropped + stats.notProfiled > 0, 'the drop counters rose');

    // Memory again: storing resumes; every token handed out meanwhile is stored or marked dropped.
    await redis.admin.config('SET', 'maxmemory', '0');
    const recovery = await msUntilStoredAgain(server.port, redis.admin, prefix);
    t.log(`profiles stored again ${recovery === undefined ? 'never' : ms(recovery)} after memory was given back`);
    t.not(recovery, undefined, 'a profile is stored again');
    const after = await traffic(server.port, 400);
    await profiler.writer.whenIdle();
    const states = await tokenStates(redis.admin, prefix, tokensOf(during));
    const held = await storedCounts(redis.admin, prefix);
    const settled = profiler.stats().writer;
    const run = [first, ...before, ...during, ...Object.values(pages), ...after];
    t.log(`tokens handed out out of memory: ${tokensOf(during).length}, stored ${states.found}, marked dropped ${states.dropped}, lost ${states.lost.length}; duplicated across the run ${duplicates(allTokensOf(run))}`);
    t.log(`stored counter ${settled.stored} vs ${held.indexed} indexed; dropped counter ${settled.dropped} vs ${held.tombstones} tombstones`);
    t.deepEqual(states.lost, [], 'no token lost');
    t.is(duplicates(allTokensOf(run)), 0, 'no token handed out twice');
    t.is(settled.stored, held.indexed, 'the stored counter matches the index');
    t.is(settled.dropped, held.tombstones, 'every dropped profile has its tombstone');
    t.is((await timedGet(server.port, '/session', { cookie })).status, 200, 'sessions are saved again');
  } finally {
    await server.close().catch(() => undefined);
    await redis.stop();
  }
});
