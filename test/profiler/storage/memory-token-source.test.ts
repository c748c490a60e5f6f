import test from 'ava';
import { MemoryTokenSource } from '../../../src/profiler/storage/memory-token-source';
import { permuteToken, formatToken } from '../../../src/profiler/storage/token-permutation';

test('tokens are six lowercase hex digits, scattered, and none comes back among the first hundred thousand', (t) => {
  const source = new MemoryTokenSource({ isTaken: () => false });
  const seen = new Set<string>();
  for (let i = 0; i < 100_000; i++) {
    const token = source.allocate();
    if (token === null || !/^[0-9a-f]{6}$/.test(token) || seen.has(token)) return t.fail(`token ${String(token)} at ${i}`);
    seen.add(token);
  }
  t.is(seen.size, 100_000);
});

test('a token that still names a stored profile or a tombstone is skipped', (t) => {
  const key = 0x1234abcd;
  const taken = new Set([formatToken(permuteToken(0, key)), formatToken(permuteToken(2, key))]);
  const source = new MemoryTokenSource({ key, isTaken: (token) => taken.has(token) });
  t.deepEqual([source.allocate(), source.allocate()], [formatToken(permuteToken(1, key)), formatToken(permuteToken(3, key))]);
});

test('two processes (two sources) hand out tokens in different orders', (t) => {
  const one = new MemoryTokenSource({ isTaken: () => false, key: 1 });
  const other = new MemoryTokenSource({ isTaken: () => false, key: 2 });
  t.notDeepEqual([one.allocate(), one.allocate(), one.allocate()], [other.allocate(), other.allocate(), other.allocate()]);
});
