import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters; stored in each hash so they can be raised later without breaking old hashes. */
export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  /** Block size; memory grows with `N * r` (8 by default). */
  readonly r: number;
  /** Parallelisation: independent computations, each of the whole cost (1 by default). */
  readonly p: number;
}

/**
 * Node's defaults: about 40 ms and 16 MiB per hash here, on libuv's thread pool (off the event
 * loop). HTTP Basic sends the password with every request, so successful checks are cached
 * (see CredentialsVerifier) and failures throttled (LoginThrottle).
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = Object.freeze({ N: 16384, r: 8, p: 1 });

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** Most memory one verification may take (scrypt needs 128·N·r bytes). */
const MAX_MEMORY = 256 * 1024 * 1024;

interface ParsedHash extends ScryptCost {
  readonly salt: Buffer;
  readonly hash: Buffer;
}

function options({ N, r, p }: ScryptCost): ScryptOptions {
  // scrypt needs 128·N·r bytes; Node refuses more than 32 MiB unless told.
  return { N, r, p, maxmem: 256 * N * r };
}

function format(cost: ScryptCost, salt: Buffer, hash: Buffer): string {
  return `scrypt$${cost.N}$${cost.r}$${cost.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Reads `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`; `null` when it is not one (or the cost is absurd). */
export function parsePasswordHash(encoded: string): ParsedHash | null {
  const match = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/.exec(encoded);
  if (match === null) return null;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Bounded so that a hash from configuration cannot ask for gigabytes of memory.
  const powerOfTwo = N > 1 && (N & (N - 1)) === 0;
  if (!powerOfTwo || r < 1 || r > 32 || p < 1 || p > 16 || 128 * N * r > MAX_MEMORY) return null;
  const salt = Buffer.from(match[4] ?? '', 'base64');
  const hash = Buffer.from(match[5] ?? '', 'base64');
  if (salt.length < 8 || hash.length < 16) return null;
  return { N, r, p, salt, hash };
}

/** Hashes `password` with a fresh salt, off the event loop. */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options(cost), (error, key) => (error === null ? resolve(key) : reject(error)));
  });
  return format(cost, salt, hash);
}

/** Hashes `password` with a fresh salt, blocking; for scripts and tests. */
export function hashPasswordSync(password: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): string {
  const salt = randomBytes(SALT_LENGTH);
  return format(cost, salt, scryptSync(password.normalize('NFC'), salt, KEY_LENGTH, options(cost)));
}

/** True when `password` matches `encoded`, compared in constant time; never throws. Off the event loop. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parsePasswordHash(encoded);
  if (parsed === null) return false;
  const { salt, hash } = parsed;
  const key = await new Promise<Buffer | null>((resolve) => {
    scrypt(password.normalize('NFC'), salt, hash.length, options(parsed), (error, derived) => resolve(error === null ? derived : null));
  });
  return key !== null && timingSafeEqual(key, hash);
}
