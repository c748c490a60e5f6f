import { LoupeError } from '../../errors/loupe-error';

/**
 * The names that mark a value as secret, as patterns: `token` matches a whole name part, `*token*`
 * a part that contains it, `token*` / `*token` one that starts / ends with it; a pattern with
 * separators (`card-number`) matches those parts in a row. Words that hide inside ordinary ones
 * (`key` in `keywords`, `access` in `accessibility`, `pass` in `passenger`) match whole parts only.
 * Besides these, a name that is `code` as a whole (any case: OAuth's `?code=`, a one-time code)
 * is a secret, but not a name of which it is a part: `status_code`, `zip_code`, `errorCode`.
 */
export const BUILT_IN_SECRET_NAMES: readonly string[] = Object.freeze([
  '*password*', '*passwd*', '*passphrase*', 'pass', 'pwd', 'pw',
  '*secret*', '*token*', '*credential*', '*signature*', 'sig',
  '*authorization*', 'auth', 'oauth', '*apikey*', 'key', 'private', 'access',
  '*session*', '*sessid*', '*cookie*', '*jwt*', '*csrf*', '*xsrf*', 'otp',
  // `X-Api-Keys`, `Authentication`, `X-Bearer`: headers that carry credentials under other names.
  'keys', '*authentication*', 'bearer',
]);

/** Names secret only as a whole, lowercase (see BUILT_IN_SECRET_NAMES). */
const WHOLE_SECRET_NAMES: ReadonlySet<string> = new Set(['code']);

/** What a pattern may be: letters and digits, parts joined by `-`, `_` or `.`, a `*` at either end. */
const PATTERN_SYNTAX = /^\*?[A-Za-z0-9]+(?:[-_.][A-Za-z0-9]+)*\*?$/;
/** Names longer than this are not cached: they are text being searched, not field names. */
const MAX_CACHED_NAME = 64;
const MAX_CACHE_SIZE = 2_000;

interface NamePattern {
  readonly parts: readonly string[];
  /** The parts joined, so that `api-key` also matches `apikey`. */
  readonly joined: string;
  readonly anyBefore: boolean;
  readonly anyAfter: boolean;
}

/** Why `pattern` is not a name pattern, or `null` when it is one. */
export function namePatternProblem(pattern: string): string | null {
  return PATTERN_SYNTAX.test(pattern) ? null : 'letters and digits, parts joined by "-", "_" or ".", with an optional "*" at either end';
}

/**
 * The lowercase parts of a name: split at anything but a letter or digit, at camelCase humps
 * (`apiKey`, `XMLHttp`) and between letters and digits (`oauth2`). `X-Api-Key` → x, api, key.
 */
export function nameParts(name: string): string[] {
  return (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g) ?? []).map((part) => part.toLowerCase());
}

function parsePattern(pattern: string): NamePattern {
  const problem = namePatternProblem(pattern);
  if (problem !== null) throw new LoupeError('LOUPE_ERR_CONFIG_INVALID', `Invalid redaction name "${pattern}": expected ${problem}.`);
  const parts = pattern.replace(/\*/g, '').toLowerCase().split(/[-_.]/);
  return { parts, joined: parts.join(''), anyBefore: pattern.startsWith('*'), anyAfter: pattern.endsWith('*') };
}

function partMatches(part: string, wanted: string, anyBefore: boolean, anyAfter: boolean): boolean {
  if (anyBefore && anyAfter) return part.includes(wanted);
  if (anyBefore) return part.endsWith(wanted);
  if (anyAfter) return part.startsWith(wanted);
  return part === wanted;
}

function matchesAt(parts: readonly string[], at: number, pattern: NamePattern): boolean {
  const last = pattern.parts.length - 1;
  return pattern.parts.every((wanted, i) => {
    const part = parts[at + i];
    return part !== undefined && partMatches(part, wanted, i === 0 && pattern.anyBefore, i === last && pattern.anyAfter);
  });
}

/** A name taken apart: its parts, and its words (between separators, camelCase humps kept together). */
interface SplitName {
  readonly parts: readonly string[];
  readonly words: readonly string[];
}

function matches(name: SplitName, pattern: NamePattern): boolean {
  // A fragment is looked for inside whole words: `myIBANs` splits as my, iba, ns.
  if (pattern.anyBefore && pattern.anyAfter && name.words.some((word) => word.includes(pattern.joined))) return true;
  if (pattern.anyBefore && pattern.anyAfter && pattern.parts.length === 1) return false;
  const { parts } = name;
  for (let at = 0; at < parts.length; at++) {
    if (matchesAt(parts, at, pattern)) return true;
    const part = parts[at];
    if (pattern.parts.length > 1 && part !== undefined && partMatches(part, pattern.joined, pattern.anyBefore, pattern.anyAfter)) return true;
  }
  return false;
}

/** Decides, case-insensitively and by name part, whether a name (of a field, header, parameter) is a secret's. */
export class SecretNames {
  readonly #patterns: readonly NamePattern[];
  readonly #cache = new Map<string, boolean>();

  /** The built-in patterns and `extra` ones (PROFILER_REDACT); an invalid pattern throws. */
  constructor(extra: readonly string[] = []) {
    this.#patterns = [...BUILT_IN_SECRET_NAMES, ...extra].map(parsePattern);
  }

  /** True when some part of `name` (or of a text's words) matches a secret pattern. */
  test(name: string): boolean {
    if (name.length > MAX_CACHED_NAME) return this.#test(name);
    let found = this.#cache.get(name);
    if (found === undefined) {
      found = this.#test(name);
      // Names come from clients: the cache is bounded, dropping everything when full.
      if (this.#cache.size >= MAX_CACHE_SIZE) this.#cache.clear();
      this.#cache.set(name, found);
    }
    return found;
  }

  #test(name: string): boolean {
    // Every match needs the pattern's parts somewhere in the name: a long text mostly stops here.
    const lower = name.toLowerCase();
    if (WHOLE_SECRET_NAMES.has(lower)) return true;
    const candidates = this.#patterns.filter((pattern) => pattern.parts.every((part) => lower.includes(part)));
    if (candidates.length === 0) return false;
    const split = { parts: nameParts(name), words: lower.match(/[a-z0-9]+/g) ?? [] };
    return candidates.some((pattern) => matches(split, pattern));
  }
}
