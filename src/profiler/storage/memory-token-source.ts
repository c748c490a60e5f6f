import { randomInt } from 'node:crypto';
import { type TokenSource } from './token-source';
import { formatToken, permuteToken, TOKEN_SPACE } from './token-permutation';

export interface MemoryTokenSourceOptions {
  /** Whether a token still names a stored profile or a tombstone: such a token is skipped. */
  readonly isTaken: (token: string) => boolean;
  /** The permutation key; random unless given (tests). */
  readonly key?: number;
}

/**
 * Tokens for one process that keeps its profiles itself: a counter mapped through the keyed
 * permutation the Redis allocator uses, so tokens look the same (six hex digits, random-looking)
 * and none comes back within 16.7 million requests; after that, one still naming a stored profile
 * or a tombstone is skipped. No round trip: a token is always at hand.
 */
export class MemoryTokenSource implements TokenSource {
  readonly #isTaken: (token: string) => boolean;
  readonly #key: number;
  #sequence = 0;

  constructor(options: MemoryTokenSourceOptions) {
    this.#isTaken = options.isTaken;
    this.#key = (options.key ?? randomInt(0, 0xffffffff)) >>> 0;
  }

  allocate(): string | null {
    // Every token taken would mean 16.7 million profiles stored: retention is capped far below.
    for (let tries = 0; tries < TOKEN_SPACE; tries++) {
      const token = formatToken(permuteToken(this.#sequence, this.#key));
      this.#sequence = (this.#sequence + 1) % TOKEN_SPACE;
      if (!this.#isTaken(token)) return token;
    }
    return null;
  }
}
