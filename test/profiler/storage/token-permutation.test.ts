import test from 'ava';
import { formatToken, permuteToken, TOKEN_SPACE } from '../../../src/profiler/storage/token-permutation';

test('the permutation is one to one over the whole 24-bit space', (t) => {
  const seen = new Uint8Array(TOKEN_SPACE);
  const key = 0x5eed1234;
  let collisions = 0;
  for (let sequence = 0; sequence < TOKEN_SPACE; sequence++) {
    const token = permuteToken(sequence, key);
    if (token < 0 || token >= TOKEN_SPACE || seen[token] === 1) collisions++;
    seen[token] = 1;
  }
  t.is(collisions, 0);
});

test('consecutive sequence numbers give scattered tokens, and keys give different orders', (t) => {
  const first = [0, 1, 2, 3].map((n) => permuteToken(n, 1));
  t.true(first.every((token, i) => i === 0 || Math.abs(token - (first[i - 1] ?? 0)) > 1));
  t.notDeepEqual(first, [0, 1, 2, 3].map((n) => permuteToken(n, 2)));
});

test('tokens are six lowercase hex digits', (t) => {
  t.is(formatToken(0), '000000');
  t.is(formatToken(0xabcdef), 'abcdef');
  t.regex(formatToken(permuteToken(42, 7)), /^[0-9a-f]{6}$/);
});
