import { MIN_PROFILE_BYTES } from '../profiler-config';
import { bytesOf, cutText } from '../collect/cut-text';
import { type Profile, type ProfileCut } from '../profile';
import { dropCallStacks } from './drop-call-stacks';

/** Longest string, in serialized bytes, kept at each step of cutting; each step is tried in turn. */
const STRING_LIMITS = [16_384, 4_096, 1_024, 256, 64] as const;


/** A copy of `value` with every string (and object key) longer than `limit` cut. */
function cutStrings(value: unknown, limit: number, counter: { strings: number }): unknown {
  if (typeof value === 'string') {
    const cut = cutText(value, limit);
    if (cut !== value) counter.strings += 1;
    return cut;
  }
  if (Array.isArray(value)) return value.map((item: unknown) => cutStrings(item, limit, counter));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    let name = cutStrings(key, limit, counter) as string;
    // Two long keys alike up to the cut must not overwrite each other.
    for (let n = 2; Object.hasOwn(out, name); n++) name = `${cutText(key, limit)} #${n}`;
    out[name] = cutStrings(item, limit, counter);
  }
  return out;
}

function withCut(profile: Profile, cut: ProfileCut): Profile {
  return { ...profile, cut };
}

/**
 * The profile serialized within `maxBytes` (UTF-8 bytes of the JSON stored). A profile that fits
 * is stored whole. Otherwise the stacks of its captured calls are left out first (each keeps its
 * origin), then its strings are cut, the longest first (every string above 16 KiB,
 * then 4 KiB, 1 KiB, 256 and 64 bytes, until it fits); if that is not enough, collector entries
 * are dropped, the largest first. What was cut is said in the profile's `cut` field, which the
 * panel shows. The size is measured on the final JSON each time, so the result never exceeds
 * `maxBytes`: with every collector dropped and every string at 64 bytes the envelope is far below
 * MIN_PROFILE_BYTES, the smallest budget the configuration accepts.
 */
export function serializeWithinBudget(profile: Profile, maxBytes: number): string {
  return textWithinBudget(profile, JSON.stringify(profile), maxBytes);
}

/** `whole`, the JSON of `profile`, if it fits in `maxBytes`, else the profile cut to fit. */
function textWithinBudget(profile: Profile, whole: string, maxBytes: number): string {
  // A UTF-16 code unit takes at most three UTF-8 bytes: most profiles need no counting.
  if (whole.length * 3 <= maxBytes) return whole;
  const originalBytes = bytesOf(whole);
  return originalBytes <= maxBytes ? whole : cutToBudget(profile, maxBytes, originalBytes);
}

/**
 * Longest JSON, in characters, that the writer hands the Redis client as text. A small profile
 * (a 404, a plain page: 2 to 4 KB) costs less as text, which the client joins into the batch's
 * command and the socket encodes once; a larger one costs less as its UTF-8 bytes, which the
 * client copies as they are rather than measure and encode a batch-long string (at 40 KB, some
 * 15 % less CPU a profile written; at 2 KB, some 10 % more).
 */
const TEXT_PROFILE_CHARACTERS = 4_096;

/**
 * What the writer stores: the profile's JSON within `maxBytes` (as serializeWithinBudget), as
 * text up to TEXT_PROFILE_CHARACTERS and as its UTF-8 bytes, encoded once, above. The length of
 * the bytes is the exact size, so a profile that fits needs no separate measuring.
 */
export function encodeWithinBudget(profile: Profile, maxBytes: number): string | Buffer {
  const whole = JSON.stringify(profile);
  if (whole.length <= TEXT_PROFILE_CHARACTERS) return textWithinBudget(profile, whole, maxBytes);
  const bytes = Buffer.from(whole, 'utf8');
  return bytes.length <= maxBytes ? bytes : Buffer.from(cutToBudget(profile, maxBytes, bytes.length), 'utf8');
}

/** The JSON of a profile of `originalBytes`, more than `maxBytes`, cut to fit (see serializeWithinBudget). */
function cutToBudget(whole: Profile, maxBytes: number, originalBytes: number): string {
  // The calls' stacks go first: each call keeps its origin, the line to fix.
  const { profile, stacks } = dropCallStacks(whole);
  const dropped = stacks === 0 ? {} : { stacks };
  if (stacks > 0) {
    const json = JSON.stringify(withCut(profile, { originalBytes, strings: 0, collectors: [], ...dropped }));
    if (bytesOf(json) <= maxBytes) return json;
  }
  const counter = { strings: 0 };
  let cutProfile = profile;
  for (const limit of STRING_LIMITS) {
    counter.strings = 0;
    cutProfile = cutStrings(profile, limit, counter) as Profile;
    const json = JSON.stringify(withCut(cutProfile, { originalBytes, strings: counter.strings, collectors: [], ...dropped }));
    if (bytesOf(json) <= maxBytes) return json;
  }
  const collectors: Record<string, unknown> = { ...cutProfile.collectors };
  const bySize = Object.keys(collectors).sort((a, b) => bytesOf(JSON.stringify(collectors[b])) - bytesOf(JSON.stringify(collectors[a])));
  const left: string[] = [];
  for (const name of bySize) {
    delete collectors[name];
    left.push(name);
    const json = JSON.stringify(withCut({ ...cutProfile, collectors: collectors as Profile['collectors'] }, { originalBytes, strings: counter.strings, collectors: left, ...dropped }));
    if (bytesOf(json) <= maxBytes) return json;
  }
  throw new RangeError(`A profile envelope does not fit in ${maxBytes} bytes; the budget must be at least ${MIN_PROFILE_BYTES}.`);
}
