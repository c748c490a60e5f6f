import { summarize, type Profile, type ProfileSummary } from '../../profile';
import { parseProfile } from '../../profile-schema';
import { type ProfileStorage } from '../../storage/profile-storage';
import { withParentErrors } from '../resolve-parent-errors';

/** What the profile page needs to find a profile. */
export interface ProfileSource {
  readonly storage: Pick<ProfileStorage, 'read' | 'latest'>;
  /** Why this process dropped a profile it handed a token for, if it did recently. */
  readonly droppedReason: (token: string) => string | undefined;
}

/** A summary of a child profile, or why there is none. */
export type ChildProfile = (ProfileSummary & { readonly stored: true }) | { readonly token: string; readonly stored: false; readonly reason: string };

export type ProfileLookup =
  | { readonly kind: 'found'; readonly profile: Profile; readonly children: readonly ChildProfile[] }
  | { readonly kind: 'dropped'; readonly token: string; readonly reason: string }
  | { readonly kind: 'missing'; readonly token: string }
  | { readonly kind: 'unreadable'; readonly token: string; readonly reason: string }
  /** `latest` was asked for and nothing is stored. */
  | { readonly kind: 'none' };

async function readChild(source: ProfileSource, token: string): Promise<ChildProfile> {
  const read = await source.storage.read(token);
  if (read.kind === 'dropped') return { token, stored: false, reason: read.reason };
  if (read.kind === 'missing') return { token, stored: false, reason: source.droppedReason(token) ?? 'not stored (expired, or still being written)' };
  const parsed = parseProfile(read.json);
  return parsed.ok ? { ...summarize(parsed.profile), stored: true } : { token, stored: false, reason: `unreadable: ${parsed.error}` };
}

/** The parsed profile under `token`, or `null` when there is none that can be read. */
async function readProfile(source: ProfileSource, token: string): Promise<Profile | null> {
  const read = await source.storage.read(token);
  if (read.kind !== 'found') return null;
  const parsed = parseProfile(read.json);
  return parsed.ok ? parsed.profile : null;
}

/**
 * Finds the profile under `token` (`latest`: the newest main-request profile) with summaries of
 * its children. A token with no profile is told apart from one whose profile was dropped,
 * by a tombstone in storage or by this process's writer. An error sub-request's profile comes
 * with its parent's errors it refers to put back (see resolveParentErrors).
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
  if (!parsed.ok) return { kind: 'unreadable', token, reason: parsed.error };
  const children: ChildProfile[] = [];
  for (const child of parsed.profile.children) {
    // A token equal to its own profile's would loop (Symfony's FileProfilerStorage guards the same).
    if (child !== token) children.push(await readChild(source, child));
  }
  const profile = await withParentErrors(parsed.profile, (parent) => readProfile(source, parent));
  return { kind: 'found', profile, children };
}
