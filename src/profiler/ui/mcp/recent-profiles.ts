import { ROUTER_COLLECTOR, type RouterCollectorData } from '../../collect/collectors/router-collector';
import { collectorData, type Profile } from '../../profile';
import { parseProfile } from '../../profile-schema';
import { type ProfileCriteria, type ProfileStorage } from '../../storage/profile-storage';

/** Profiles read at once. */
const READS = 16;

/**
 * The newest stored main requests matching `criteria` (the browser's /favicon.ico left out), at
 * most `scan` of them read, newest first, that `keep` keeps, until `limit` are kept. Rows and
 * profiles that cannot be read are passed over: the agent asked for problems, not for the store's.
 */
export async function readRecentProfiles(storage: ProfileStorage, criteria: ProfileCriteria, scan: number, limit: number, keep: (profile: Profile) => boolean): Promise<{ kept: Profile[]; read: number }> {
  const { rows } = await storage.search({ ...criteria, mainRequestsOnly: true, hideFavicon: true, limit: scan });
  const tokens = rows.flatMap((row) => (row.ok ? [row.summary.token] : []));
  const kept: Profile[] = [];
  let read = 0;
  for (let start = 0; start < tokens.length && kept.length < limit; start += READS) {
    const found = await Promise.all(tokens.slice(start, start + READS).map((token) => storage.read(token)));
    for (const result of found) {
      const parsed = result.kind === 'found' ? parseProfile(result.json) : null;
      if (parsed?.ok !== true) continue;
      read++;
      if (keep(parsed.profile) && kept.length < limit) kept.push(parsed.profile);
    }
  }
  return { kept, read };
}

/** `Profile 1a2b3c  GET http://…/posts  500  route posts  2026-11-28T16:00:00.000Z`: the line a tool's block about one profile starts with. */
export function profileLine(profile: Profile): string {
  const route = collectorData<RouterCollectorData>(profile, ROUTER_COLLECTOR)?.route;
  return `Profile ${profile.token}  ${profile.method} ${profile.url}  ${profile.statusCode}${typeof route === 'string' ? `  route ${route}` : ''}  ${new Date(profile.time).toISOString()}`;
}
