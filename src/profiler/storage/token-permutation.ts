const HALF_BITS = 12;
const HALF_MASK = (1 << HALF_BITS) - 1;
const ROUNDS = 4;

/** A keyed round function on 12 bits (any function works: a Feistel network is a bijection whatever it is). */
function round(half: number, key: number, index: number): number {
  let x = (half ^ (key >>> (index * 8))) * 0x9e3779b1;
  x ^= x >>> 15;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  return x & HALF_MASK;
}

/**
 * Maps a 24-bit sequence number to a 24-bit token number, one to one: distinct sequence numbers
 * always give distinct tokens, which look random without any lookup. A four-round Feistel network
 * over two 12-bit halves, keyed per Redis.
 */
export function permuteToken(sequence: number, key: number): number {
  let left = (sequence >>> HALF_BITS) & HALF_MASK;
  let right = sequence & HALF_MASK;
  for (let i = 0; i < ROUNDS; i++) {
    const next = left ^ round(right, key, i);
    left = right;
    right = next;
  }
  return (left << HALF_BITS) | right;
}

/** Six lowercase hex digits, as Symfony's profiler tokens. */
export function formatToken(value: number): string {
  return value.toString(16).padStart(6, '0');
}

export const TOKEN_SPACE = 1 << 24;
