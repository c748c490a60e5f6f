import test from 'ava';
import { startTestServer } from '../helpers/test-server';
import { startThrowawayRedis } from '../helpers/throwaway-redis';
import { allTokensOf, cookieOf, duplicates, jsonOf, ms, percentile, storedCounts, timedGet, tokensOf, tokenStates, traffic, warmUp } from './fault-probes';

test('Redis flushed mid-run: pages keep working, no token is handed out twice, new profiles are all stored and counted', async (t) => {
  // A throwaway Redis, a server and a few thousand requests: longer than AVA's idle timeout on a busy machine.
  t.timeout(90_000);
  const redis = await startThrowawayRedis(6404);
  const server = await startTestServer({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '1000' });
  try {
    const { profiler, prefix, first, cookie, before, last: old } = await warmUp(server);
    const storedBefore = profiler.stats().writer.stored;
    const droppedBefore = profiler.stats().writer.dropped;

    await redis.admin.flushall();
    const [session, oldProfile, status] = await Promise.all([
      timedGet(server.port, '/session', { cookie }),
      timedGet(server.port, `/_profiler/${old}`, { accept: 'application/json' }),
      timedGet(server.port, '/_profiler/status', { accept: 'application/json' }),
    ]);
    const after = await traffic(server.port, 800);
    await profiler.writer.whenIdle();
    const run = [first, ...before, session, ...after];
    const states = await tokenStates(redis.admin, prefix, tokensOf(after));
    const held = await storedCounts(redis.admin, prefix);
    const settled = profiler.stats().writer;
    t.log(`plain p99 before ${ms(percentile(before, 0.99))}, after the flush ${ms(percentile(after, 0.99))}; session ${session.status}, old profile ${oldProfile.status}, status ${status.status}`);
    t.log(`tokens after the flush: ${tokensOf(after).length}, stored ${states.found}, marked dropped ${states.dropped}, lost ${states.lost.length}; duplicated across the flush ${duplicates(allTokensOf(run))}`);
    t.log(`since the flush: stored counter ${settled.stored - storedBefore} vs ${held.indexed} indexed; dropped counter ${settled.dropped - droppedBefore} vs ${held.tombstones} tombstones`);

    t.true(after.every((sample) => sample.status === 200 && sample.token !== undefined), 'every request is answered and profiled');
    t.is(session.status, 200, 'a flushed session starts again');
    t.not(cookieOf(session), cookie, 'under a new id');
    t.is(oldProfile.status, 404, 'a flushed profile is not found');
    t.like(jsonOf(status), { storage: { reachable: true } });
    t.deepEqual(states.lost, [], 'no token lost');
    t.is(duplicates(allTokensOf(run)), 0, 'no token handed out twice across the flush');
    t.is(settled.stored - storedBefore, held.indexed, 'the stored counter matches the index');
    t.is(settled.dropped - droppedBefore, held.tombstones, 'every dropped profile has its tombstone');
  } finally {
    await server.close().catch(() => undefined);
    await redis.stop();
  }
});
