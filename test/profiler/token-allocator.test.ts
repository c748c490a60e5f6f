import test from 'ava';
import { TokenAllocator } from '../../src/profiler/token-allocator';
import { connectTestRedis, testKeyPrefix } from '../helpers/test-redis';

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
