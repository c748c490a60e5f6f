import { CliError } from '../../../cli/cli-error';
import { type Profile } from '../../profile';
import { parseProfile, unreadableProfileMessage } from '../../profile-schema';
import { type ProfileStorage } from '../../storage/profile-storage';
import { withParentErrors } from '../resolve-parent-errors';

/**
 * The stored JSON of `requested` (a token, or `latest` for the newest main request) and its
 * token. Throws a CliError that says why there is none: nothing stored under `prefix` yet, an
 * unknown token, or a token whose profile was dropped.
 */
export async function readStoredJson(storage: Pick<ProfileStorage, 'latest' | 'read'>, prefix: string, requested: string): Promise<{ token: string; json: string }> {
  const token = requested === 'latest' ? await storage.latest() : requested;
  if (token === null) throw new CliError(1, `No profile is stored under the prefix "${prefix}" yet.`);
  const found = await storage.read(token);
  if (found.kind === 'missing') throw new CliError(1, `Token "${token}" not found.`);
  if (found.kind === 'dropped') throw new CliError(1, `Token "${token}" was dropped: its profile could not be stored (${found.reason}).`);
  return { token, json: found.json };
}

/** The profile of `requested`, parsed; a CliError when it is not stored (see readStoredJson) or cannot be read. */
export async function readStoredProfile(storage: Pick<ProfileStorage, 'latest' | 'read'>, prefix: string, requested: string): Promise<Profile> {
  const { token, json } = await readStoredJson(storage, prefix, requested);
  const parsed = parseProfile(json);
  if (!parsed.ok) throw new CliError(1, unreadableProfileMessage(token, parsed.error));
  return parsed.profile;
}

/** `profile` with the errors of its parent request it refers to (an error sub-request's are its parent's), read from `storage`. */
export function withStoredParentErrors(storage: Pick<ProfileStorage, 'read'>, profile: Profile): Promise<Profile> {
  return withParentErrors(profile, async (token) => {
    const read = await storage.read(token);
    const parent = read.kind === 'found' ? parseProfile(read.json) : null;
    return parent?.ok === true ? parent.profile : null;
  });
}
