import { type Profile, type ProfileSummary } from '../profile';
import { type ProfileStorage } from '../profile-storage';

/** What the profile page needs to find a profile. */
export interface ProfileSource {
  readonly storage: ProfileStorage;
  /** Why this process dropped a profile it handed a token for, if it did recently. */
  readonly droppedReason: (token: string) => string | undefined;
}

/** A summary of a child profile, or why there is none. */
export type ChildProfile = (ProfileSummary & { readonly stored: true }) | { readonly token: string; readonly stored: false; readonly reason: string };

export type ProfileLookup =
  | { readonly kind: 'found'; readonly profile: Profile; readonly raw: Readonly<Record<string, unknown>>; readonly children: readonly ChildProfile[] }
  | { readonly kind: 'dropped'; readonly token: string; readonly reason: string }
  | { readonly kind: 'missing'; readonly token: string }
  | { readonly kind: 'unreadable'; readonly token: string; readonly reason: string }
  /** `latest` was asked for and nothing is stored. */
  | { readonly kind: 'none' };

const ARRAYS = ['children', 'phases', 'states', 'listeners', 'errors', 'logs'] as const;
const STRINGS = ['token', 'type', 'ip', 'method', 'url'] as const;
const NUMBERS = ['time', 'statusCode', 'duration'] as const;
const OBJECTS = ['routing', 'request', 'response'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The stored JSON as a Profile, after checking the fields the pages read: a profile written
 * by another version of Loupe must give a clear message rather than a broken page.
 */
export function parseProfile(json: string): { profile: Profile; raw: Record<string, unknown> } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    return { error: `it is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (!isRecord(raw)) return { error: 'it is not a JSON object' };
  const bad =
    STRINGS.find((key) => typeof raw[key] !== 'string') ??
    NUMBERS.find((key) => typeof raw[key] !== 'number') ??
    ARRAYS.find((key) => !Array.isArray(raw[key])) ??
    OBJECTS.find((key) => !isRecord(raw[key]));
  if (bad !== undefined) return { error: `the field "${bad}" is missing or of the wrong type` };
  if (raw['parent'] !== null && typeof raw['parent'] !== 'string') return { error: 'the field "parent" is of the wrong type' };
  const request = raw['request'] as Record<string, unknown>;
  const response = raw['response'] as Record<string, unknown>;
  if (!isRecord(request['headers']) || !isRecord(response['headers'])) return { error: 'the request or response headers are missing' };
  return { profile: raw as unknown as Profile, raw };
}

function summarize(profile: Profile): ProfileSummary {
  const { token, parent, ip, method, url, time, statusCode } = profile;
  return { token, parent, ip, method, url, time, statusCode };
}

async function readChild(source: ProfileSource, token: string): Promise<ChildProfile> {
  const read = await source.storage.read(token);
  if (read.kind === 'dropped') return { token, stored: false, reason: read.reason };
  if (read.kind === 'missing') return { token, stored: false, reason: source.droppedReason(token) ?? 'not stored (expired, or still being written)' };
  const parsed = parseProfile(read.json);
  return 'error' in parsed ? { token, stored: false, reason: `unreadable: ${parsed.error}` } : { ...summarize(parsed.profile), stored: true };
}

/**
 * Finds the profile under `token` (`latest`: the newest main-request profile) with summaries of
 * its children. A token with no profile is told apart from one whose profile was dropped,
 * by a tombstone in storage or by this process's writer.
 */
export async function loadProfile(source: ProfileSource, requested: string): Promise<ProfileLookup> {
  const token = requested === 'latest' ? await source.storage.latest() : requested;
  if (token === null) return { kind: 'none' };
  const read = await source.storage.read(token);
  if (read.kind === 'dropped') return { kind: 'dropped', token, reason: read.reason };
  if (read.kind === 'missing') {
    const reason = source.droppedReason(token);
    return reason === undefined ? { kind: 'missing', token } : { kind: 'dropped', token, reason };
  }
  const parsed = parseProfile(read.json);
  if ('error' in parsed) return { kind: 'unreadable', token, reason: parsed.error };
  const children: ChildProfile[] = [];
  for (const child of parsed.profile.children) {
    // A token equal to its own profile's would loop (Symfony's FileProfilerStorage guards the same).
    if (typeof child === 'string' && child !== token) children.push(await readChild(source, child));
  }
  return { kind: 'found', profile: parsed.profile, raw: parsed.raw, children };
}
