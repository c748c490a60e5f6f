import { summarize, type Profile } from '../../profile';
import { parseProfile } from '../../profile-schema';
import { type ProfileStorage } from '../../storage/profile-storage';

/** Index rows read at most: every profile page view runs this search. */
const LOOKBACK_ROWS = 1_000;

/**
 * The newest main-request profile before `profile` of the same route (of the same method and URL
 * when no route matched), among the LOOKBACK_ROWS before it: what its page offers to compare with.
 */
export async function previousProfileOf(storage: Pick<ProfileStorage, 'search'>, profile: Profile): Promise<string | null> {
  if (profile.parent !== null) return null;
  const summary = summarize(profile);
  const route = summary.route ?? null;
  const criteria = route === null ? { method: profile.method, url: summary.url } : { route };
  const { rows } = await storage.search({ ...criteria, mainRequestsOnly: true, end: profile.time, limit: 20, scanLimit: LOOKBACK_ROWS });
  for (const row of rows) {
    if (!row.ok || row.summary.token === profile.token) continue;
    if (route === null && row.summary.url !== summary.url) continue;
    return row.summary.token;
  }
  return null;
}

/** The profile under `token`, or `null` when it is gone or unreadable: a panel then shows no comparison rather than an error. */
export async function readPreviousProfile(storage: Pick<ProfileStorage, 'read'>, token: string): Promise<Profile | null> {
  const read = await storage.read(token);
  if (read.kind !== 'found') return null;
  const parsed = parseProfile(read.json);
  return parsed.ok ? parsed.profile : null;
}
