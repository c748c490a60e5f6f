import test from 'ava';
import { ProfileKeys } from '../../../src/profiler/storage/profile-keys';
import { formatToken, permuteToken } from '../../../src/profiler/storage/token-permutation';

test('one group without tags keeps the key names of a single Redis', (t) => {
  const keys = new ProfileKeys({ prefix: 'loupe:', groups: 1, hashTags: false });
  const group = keys.of('3e8cb6');
  t.like(group, { group: 0, index: 'loupe:profiler:index', meta: 'loupe:profiler:meta', sizes: 'loupe:profiler:sizes', bytes: 'loupe:profiler:bytes', profilePrefix: 'loupe:profile:' });
  t.is(group.profile('3e8cb6'), 'loupe:profile:3e8cb6');
  t.is(group.dropped('3e8cb6'), 'loupe:profile-dropped:3e8cb6');
  t.is(group.writer('a1b2c3'), 'loupe:profiler:writer:a1b2c3');
  t.is(keys.tokens, 'loupe:profiler:tokens');
});

test('on a cluster every key of group n carries the tag {g<n>}, and the token hash {tokens}', (t) => {
  const keys = new ProfileKeys({ prefix: 'loupe:', groups: 16, hashTags: true });
  t.is(keys.groups.length, 16);
  // 0x3e8cb6 % 16 = 6
  const group = keys.of('3e8cb6');
  t.like(group, { group: 6, index: 'loupe:{g6}:profiler:index', meta: 'loupe:{g6}:profiler:meta', sizes: 'loupe:{g6}:profiler:sizes', bytes: 'loupe:{g6}:profiler:bytes' });
  t.is(group.profile('3e8cb6'), 'loupe:{g6}:profile:3e8cb6');
  t.is(group.dropped('3e8cb6'), 'loupe:{g6}:profile-dropped:3e8cb6');
  t.is(group.writer('a1b2c3'), 'loupe:{g6}:profiler:writer:a1b2c3');
  t.is(keys.tokens, 'loupe:{tokens}:profiler:tokens');
  t.is(new ProfileKeys({ prefix: 'loupe:', groups: 1, hashTags: true }).of('3e8cb6').index, 'loupe:{g0}:profiler:index');
  t.is(new ProfileKeys({ prefix: 'loupe:', groups: 4, hashTags: false }).of('3e8cb6').index, 'loupe:{g2}:profiler:index', 'more than one group needs tags');
});

test('a token belongs to group parseInt(token, 16) % groups; a token that is not hexadecimal to group 0', (t) => {
  const keys = new ProfileKeys({ prefix: 'p:', groups: 3, hashTags: true });
  t.deepEqual(['000000', '000001', '000002', '000003', 'ffffff', 'abcdef'].map((token) => keys.of(token).group), [0, 1, 2, 0, 0, 0xabcdef % 3]);
  t.is(keys.of('../etc').group, 0);
  t.is(keys.of('').group, 0);
  const split = keys.split(['000001', '000004', '000002', '000007'], (token) => token);
  t.deepEqual([...split].map(([group, tokens]) => [group.group, tokens]), [
    [1, ['000001', '000004', '000007']],
    [2, ['000002']],
  ]);
});

test('tokens from the permutation fill sixteen groups evenly', (t) => {
  const keys = new ProfileKeys({ prefix: 'p:', groups: 16, hashTags: true });
  const counts = new Map<number, number>();
  for (let i = 0; i < 16_000; i++) {
    const { group } = keys.of(formatToken(permuteToken(i, 0x5eed)));
    counts.set(group, (counts.get(group) ?? 0) + 1);
  }
  t.is(counts.size, 16);
  t.true([...counts.values()].every((count) => count > 800 && count < 1200), [...counts.values()].join(' '));
});

test('a group count that is not a positive integer is a programming error', (t) => {
  t.throws(() => new ProfileKeys({ prefix: 'p:', groups: 0, hashTags: true }), { instanceOf: RangeError });
});
