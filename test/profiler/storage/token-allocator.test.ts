import test, { type ExecutionContext } from 'ava';
import { ProfileKeys } from '../../../src/profiler/storage/profile-keys';
import { TokenAllocator } from '../../../src/profiler/storage/token-allocator';
import { connectRedis } from '../../../src/redis/connect-redis';
import { startThrowawayRedis } from '../../helpers/throwaway-redis';
import { connectTestRedis, TEST_CLIENT_TIMEOUTS, testKeyPrefix } from '../../helpers/test-redis';

test('allocators sharing one Redis never hand out the same token, and need no round trip per token', async (t) => {
  const prefix = testKeyPrefix();
  const a = await connectTestRedis('loupe-test-a');
  const b = await connectTestRedis('loupe-test-b');
  try {
    const first = new TokenAllocator({ redis: a, prefix, blockSize: 256 });
    const second = new TokenAllocator({ redis: b, prefix, blockSize: 256 });
    await Promise.all([first.start(), second.start()]);
    const seen = new Set<string>();
    let handedOut = 0;
    let unavailable = 0;
    for (let round = 0; round < 100; round++) {
      // 150 tokens each without yielding: only what is already reserved can be used.
      for (let i = 0; i < 150; i++) {
        for (const allocator of [first, second]) {
          const token = allocator.allocate();
          if (token === null) {
            unavailable++;
            continue;
          }
          t.regex(token, /^[0-9a-f]{6}$/);
          seen.add(token);
          handedOut++;
        }
      }
      // Let the prefetches land, as the event loop would between requests: each client answers
      // in order, so a PING answered means the reservation sent before it was answered too; the
      // macrotask after it lets the allocators take their block.
      await Promise.all([a.ping(), b.ping()]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    t.is(seen.size, handedOut, 'every token handed out is unique');
    t.true(handedOut >= 29_000, `only ${handedOut} tokens were handed out (${unavailable} refused)`);
  } finally {
    const keys = await a.keys(`${prefix}*`);
    if (keys.length > 0) await a.del(...keys);
    a.disconnect();
    b.disconnect();
  }
});

/** Takes `count` tokens from each allocator in turn, letting prefetches land between rounds. */
async function take(allocators: readonly TokenAllocator[], count: number, into: string[]): Promise<void> {
  for (let round = 0; round < count / 100; round++) {
    for (let i = 0; i < 100; i++) {
      for (const allocator of allocators) {
        const token = allocator.allocate();
        if (token !== null) into.push(token);
      }
    }
    // Let the prefetches land, as the event loop would between requests.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function repeated(tokens: readonly string[]): string[] {
  const seen = new Set<string>();
  return tokens.filter((token) => (seen.has(token) ? true : (seen.add(token), false)));
}

test.serial('the allocation keys flushed mid-run (FLUSHALL on a Redis of its own): no token is handed out twice', async (t) => {
  const own = await startThrowawayRedis(6408);
  const a = await connectRedis(own.url, 'loupe-test-a', TEST_CLIENT_TIMEOUTS);
  const b = await connectRedis(own.url, 'loupe-test-b', TEST_CLIENT_TIMEOUTS);
  try {
    const prefix = testKeyPrefix();
    const allocators = [new TokenAllocator({ redis: a, prefix, blockSize: 256 }), new TokenAllocator({ redis: b, prefix, blockSize: 256 })];
    await Promise.all(allocators.map((allocator) => allocator.start()));
    const tokens: string[] = [];
    await take(allocators, 20_000, tokens);
    const before = tokens.length;
    await a.flushall();
    await take(allocators, 20_000, tokens);
    t.log(`${before} tokens before FLUSHALL, ${tokens.length - before} after; repeated: ${repeated(tokens).length}`);
    t.true(tokens.length - before >= 30_000, 'allocation went on after the flush');
    t.deepEqual(repeated(tokens), []);
  } finally {
    a.disconnect();
    b.disconnect();
    await own.stop();
  }
});

/**
 * An allocator hands out 30,000 tokens whose profiles (and tombstones) stay stored when the
 * allocation hash is lost; a process that knew no key then hands out 30,000 more, none of which
 * may name a stored profile or tombstone.
 */
async function clashesAfterLostKeys(t: ExecutionContext, layout: { groups: number; hashTags: boolean }): Promise<void> {
  const prefix = testKeyPrefix();
  const keys = new ProfileKeys({ prefix, ...layout });
  const redis = await connectTestRedis('loupe-test-tokens');
  try {
    const first = new TokenAllocator({ redis, prefix, ...layout, blockSize: 4096 });
    await first.start();
    const old: string[] = [];
    await take([first], 30_000, old);
    // The profiles (and tombstones) of those tokens are still stored when the keys go (eviction).
    const pipeline = redis.pipeline();
    old.forEach((token, i) => {
      const group = keys.of(token);
      if (i % 10 === 0) pipeline.set(group.dropped(token), 'dropped', 'EX', 600);
      else pipeline.set(group.profile(token), '{}', 'EX', 600).zadd(group.index, i, token);
    });
    await pipeline.exec();
    await redis.del(keys.tokens);
    const fresh = new TokenAllocator({ redis, prefix, ...layout, blockSize: 4096 });
    await fresh.start();
    const tokens: string[] = [];
    await take([fresh], 30_000, tokens);
    const taken = new Set(old);
    const clashes = tokens.filter((token) => taken.has(token));
    t.log(`${old.length} tokens with a profile, ${tokens.length} handed out by a process that knew no key; clashes: ${clashes.length}`);
    t.deepEqual(clashes, []);
    t.is(await redis.hget(keys.tokens, 'check'), '1', 'the new epoch goes on checking: profiles of the old one are indexed');
  } finally {
    const left = await redis.keys(`${prefix}*`);
    for (let i = 0; i < left.length; i += 10_000) await redis.del(...left.slice(i, i + 10_000));
    redis.disconnect();
  }
}

test.serial('a process that starts after the allocation keys were lost never hands out a token that names a stored profile or a tombstone', (t) => clashesAfterLostKeys(t, { groups: 1, hashTags: false }));

test.serial('with the profile keys in groups under hash tags (as on a cluster), a token that names a stored profile or a tombstone is never handed out either', (t) => clashesAfterLostKeys(t, { groups: 4, hashTags: true }));

test('a new epoch with no profile indexed in any group stops checking its blocks', async (t) => {
  const prefix = testKeyPrefix();
  const keys = new ProfileKeys({ prefix, groups: 4, hashTags: true });
  const redis = await connectTestRedis('loupe-test-tokens');
  try {
    const allocator = new TokenAllocator({ redis, prefix, groups: 4, hashTags: true, blockSize: 256 });
    await allocator.start();
    t.regex(allocator.allocate() ?? '', /^[0-9a-f]{6}$/);
    t.is(await redis.hget(keys.tokens, 'check'), '0');
    t.is(await redis.exists(`${prefix}profiler:tokens`), 0, 'the hash is under its own tag');
  } finally {
    await redis.del(keys.tokens);
    redis.disconnect();
  }
});
