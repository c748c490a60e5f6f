/**
 * The order servers are started, warmed and measured in, so that no server is favoured by its
 * place: issue 12 found the process started second measured faster. Start order is shuffled
 * (from a seed the run prints, to repeat it), and each round rotates the list and every other
 * round reverses it, so each server is measured first, last and after each of the others.
 */

/** A small seeded generator (mulberry32): the same seed gives the same order. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `items` in an order drawn from `seed` (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const next = random(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    const a = out[i];
    const b = out[j];
    if (a === undefined || b === undefined) continue;
    out[i] = b;
    out[j] = a;
  }
  return out;
}

/**
 * The order of round `round` (from 1): rounds go in pairs, the second of a pair the first
 * reversed (A B C, C B A), and each pair starts one place further on (B C A, A C B, …). With two
 * servers that is A B, B A, B A, A B: each is first as often as the other over four rounds.
 */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  const shift = items.length === 0 ? 0 : Math.floor((round - 1) / 2) % items.length;
  const rotated = [...items.slice(shift), ...items.slice(0, shift)];
  return round % 2 === 1 ? rotated : rotated.reverse();
}
