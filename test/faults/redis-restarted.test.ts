import test from 'ava';
import { startTestServer } from '../helpers/test-server';
import { startThrowawayRedis } from '../helpers/throwaway-redis';
import { allTokensOf, cookieOf, duplicates, ms, msUntilStoredAgain, percentile, storedCounts, timedGet, tokensOf, tokenStates, traffic, warmUp } from './fault-probes';

test('Redis restarted (SHUTDOWN NOSAVE, then started empty): served meanwhile, storing resumes on its own, no token lost or handed out twice', async (t) => {
  // A throwaway Redis, a server and a few thousand requests: longer than AVA's idle timeout on a busy machine.
  t.timeout(90_000);
  const redis = await startThrowawayRedis(6405);
  const server = await startTestServer({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '1000' });
  try {
    const { profiler, prefix, first, before } = await warmUp(server);

    await redis.shutdown();
    const [gap, session] = await Promise.all([traffic(server.port, 400), timedGet(server.port, '/session', { cookie: cookieOf(first) })]);
    await redis.restart();
    const storedBefore = profiler.stats().writer.stored;
    const recovery = await msUntilStoredAgain(server.port, redis.admin, prefix);
    const after = await traffic(server.port, 800);
    const newSession = await timedGet(server.port, '/session');
    await profiler.writer.whenIdle();
    const run = [first, ...before, ...gap, session, ...after, newSession];
    const states = await tokenStates(redis.admin, prefix, tokensOf([...gap, ...after]));
    const held = await storedCounts(redis.admin, prefix);
    const settled = profiler.stats().writer;
    t.log(`plain p99 before ${ms(percentile(before, 0.99))}, while stopped ${ms(percentile(gap, 0.99))}, after ${ms(percentile(after, 0.99))}; session while stopped ${session.status} in ${ms(session.ms)}`);
    t.log(`profiles stored again ${recovery === undefined ? 'never' : ms(recovery)} after the restart`);
    t.log(`tokens since the shutdown: ${tokensOf([...gap, ...after]).length}, stored ${states.found}, marked dropped ${states.dropped}, lost ${states.lost.length}; duplicated across the restart ${duplicates(allTokensOf(run))}`);
    t.log(`since the restart: stored counter ${settled.stored - storedBefore} vs ${held.indexed} indexed; dropped counter ${settled.dropped} vs ${held.tombstones} tombstones`);

    t.true(gap.every((sample) => sample.status === 200), 'every plain request is answered while Redis is stopped');
    t.true(percentile(gap, 0.99) < Math.max(percentile(before, 0.99) * 5, 100), 'p99 of plain pages stays low');
    t.is(session.status, 503);
    t.true(session.ms < 2_000);
    t.not(recovery, undefined, 'profiles are stored again once Redis is back');
    t.is(newSession.status, 200, 'sessions work again');
    t.deepEqual(states.lost, [], 'no token lost');
    t.is(duplicates(allTokensOf(run)), 0, 'no token handed out twice across the restart');
    t.is(settled.stored - storedBefore, held.indexed, 'the stored counter matches the index');
    t.is(settled.dropped, held.tombstones, 'every dropped profile has its tombstone');
  } finally {
    await server.close().catch(() => undefined);
    await redis.stop();
  }
});
