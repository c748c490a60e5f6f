import { ROUTER_COLLECTOR } from './collect/collectors/router-collector';
import { readStoredTimeline } from './collect/collectors/stored-timeline';
import { TIMELINE_COLLECTOR } from './collect/collectors/timeline-collector';
import { type Profile } from './profile';
import { READABLE_PROFILE_VERSIONS, type ProfileVersion } from './profiler-config';

/** A stored profile read back, or why it cannot be. */
export type ParsedProfile = { readonly ok: true; readonly profile: Profile } | { readonly ok: false; readonly error: string };

type Check = (value: unknown) => boolean;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isString: Check = (value) => typeof value === 'string';
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);

/** The envelope, in the order it is written: each field with what it must be. */
const ENVELOPE: readonly (readonly [keyof Profile, string, Check])[] = [
  ['token', 'a string', isString],
  ['parent', 'a string or null', (value) => value === null || isString(value)],
  ['children', 'a list of tokens', (value) => Array.isArray(value) && value.every(isString)],
  ['type', '"main" or "sub"', (value) => value === 'main' || value === 'sub'],
  ['method', 'a string', isString],
  ['url', 'a string', isString],
  ['ip', 'a string', isString],
  ['statusCode', 'a number', isNumber],
  ['time', 'a number', isNumber],
  ['duration', 'a number', isNumber],
  ['aborted', 'true or false', (value) => typeof value === 'boolean'],
  ['collectors', 'an object', isRecord],
  ['profilerCost', 'an object with a number "collect"', (value) => isRecord(value) && isNumber(value['collect'])],
];

const isTraceEntry: Check = (value) =>
  isRecord(value) && isString(value['name']) && isString(value['path']) && isString(value['log']) && [0, 1, 2].includes(value['level'] as number);

/**
 * The router's routes tried (added after version 1 was first written): absent or `null` in
 * profiles without them, else each field with what it must be, as the panel and CLI read them.
 */
function routerEntryProblem(entry: Record<string, unknown>): string | null {
  const matching = entry['matching'];
  if (matching === undefined || matching === null) return null;
  const valid =
    isRecord(matching) &&
    isString(matching['method']) &&
    isString(matching['path']) &&
    isNumber(matching['omitted']) &&
    Array.isArray(matching['routes']) &&
    matching['routes'].every(isTraceEntry) &&
    (matching['untraced'] === undefined || (Array.isArray(matching['untraced']) && matching['untraced'].every(isString)));
  return valid ? null : `the "matching" of the collector "${ROUTER_COLLECTOR}" is not a list of routes tried (method, path, routes of name, path, level 0-2 and log, omitted, untraced router names)`;
}

/** An entry as its readers take it, or what is wrong with it. */
type EntryReader = (entry: Record<string, unknown>) => object | string;

const checkedRouter: EntryReader = (entry) => routerEntryProblem(entry) ?? entry;

/**
 * The readers of the entries that need more than an object, by collector name, for each version:
 * version 2 stores the timeline as columns, read back as version 1 stored it.
 */
const ENTRY_READERS: Readonly<Record<ProfileVersion, Readonly<Record<string, EntryReader>>>> = {
  1: { [ROUTER_COLLECTOR]: checkedRouter },
  2: { [ROUTER_COLLECTOR]: checkedRouter, [TIMELINE_COLLECTOR]: readStoredTimeline },
};

const isReadableVersion = (version: unknown): version is ProfileVersion => READABLE_PROFILE_VERSIONS.includes(version as ProfileVersion);

function versionProblem(version: unknown): string {
  const readable = `this Loupe reads versions ${READABLE_PROFILE_VERSIONS.join(' and ')}`;
  if (version === undefined) return `it has no "version": it was stored by an earlier Loupe; ${readable}`;
  return `it is a profile of version ${JSON.stringify(version)}; ${readable}`;
}

/**
 * The one reader of stored profiles (the panel, the CLI and their tests use it): the JSON as a
 * Profile once its version, its envelope, that every collector entry is an object and the
 * entries listed in ENTRY_READERS are checked and read (a version 2 timeline as version 1
 * stored it, and the profile then says version 1), or what is wrong in words a person can act on. A collector entry that is missing
 * is no error: its panel says it has no data.
 */
export function parseProfile(json: string): ParsedProfile {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, error: `it is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!isRecord(value)) return { ok: false, error: 'it is not a JSON object' };
  const version = value['version'];
  if (!isReadableVersion(version)) return { ok: false, error: versionProblem(version) };
  for (const [field, expected, check] of ENVELOPE) {
    if (!check(value[field])) return { ok: false, error: `the field "${field}" is missing or not ${expected}` };
  }
  const readers = ENTRY_READERS[version];
  const collectors = value['collectors'] as Record<string, unknown>;
  for (const [name, entry] of Object.entries(collectors)) {
    if (!isRecord(entry)) return { ok: false, error: `the entry of the collector "${name}" is not an object` };
    const read = Object.hasOwn(readers, name) ? readers[name]?.(entry) : entry;
    if (typeof read === 'string') return { ok: false, error: read };
    if (read !== entry) collectors[name] = read;
  }
  const cut = value['cut'];
  if (cut !== undefined && !(isRecord(cut) && isNumber(cut['originalBytes']) && isNumber(cut['strings']) && Array.isArray(cut['collectors']) && cut['collectors'].every(isString))) {
    return { ok: false, error: 'the field "cut" is not an object with "originalBytes", "strings" and "collectors"' };
  }
  // What the readers get is version 1's form, and says so: the JSON API answers it, and parses back.
  if (version !== 1) value['version'] = 1;
  return { ok: true, profile: value as unknown as Profile };
}

/** What the panel and the CLI say of a profile `parseProfile` refused, in the same words. */
export function unreadableProfileMessage(token: string, error: string): string {
  return `The profile of token "${token}" cannot be read: ${error}.`;
}
