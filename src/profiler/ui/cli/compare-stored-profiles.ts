import { CliError } from '../../../cli/cli-error';
import { escapeControl } from '../../../log/escape-control';
import { type ProfileStorage } from '../../storage/profile-storage';
import { compareProfiles, type ProfileComparison } from '../compare-profiles';
import { previousProfileOf } from '../panel/previous-profile';
import { readStoredProfile } from './read-stored-profile';

/**
 * B (`second`, or `first` when it is the only one) measured against A: `first` when two are
 * named, else the request before B of the same route (of the same method and URL when no route
 * matched), as the profile page's "Compare with…" link. Tokens or `latest`; a CliError says why
 * a profile is missing or there is no earlier one, then how to name two (`namingTwo`).
 */
export async function compareStoredProfiles(storage: ProfileStorage, prefix: string, first: string, second: string | undefined, namingTwo: string): Promise<ProfileComparison> {
  if (second !== undefined) return compareProfiles(await readStoredProfile(storage, prefix, first), await readStoredProfile(storage, prefix, second));
  const b = await readStoredProfile(storage, prefix, first);
  const previous = await previousProfileOf(storage, b);
  if (previous === null) {
    const what = b.parent === null ? `the route of ${b.method} ${b.url}` : 'an error sub-request (it is compared through its parent)';
    throw new CliError(1, `No earlier profile of ${escapeControl(what)} to compare ${b.token} with: name two tokens, ${namingTwo}.`);
  }
  return compareProfiles(await readStoredProfile(storage, prefix, previous), b);
}
