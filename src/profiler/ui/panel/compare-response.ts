import { type LoupeRequest } from '../../../http/request';
import { type LoupeResponse } from '../../../http/response';
import { compareProfiles } from '../compare-profiles';
import { unreadableProfileMessage } from '../../profile-schema';
import { type ProfilerStats } from '../../profiler';
import { renderComparePage } from './compare-page';
import { loadProfile, type ProfileLookup, type ProfileSource } from './load-profile';
import { negotiatedResponse, panelErrorResponse } from './panel-response';

/** A lookup that found no readable profile, as the compare page words it: a 404 in both formats. */
export function notFoundResponse(request: LoupeRequest, lookup: Exclude<ProfileLookup, { kind: 'found' }>): LoupeResponse {
  switch (lookup.kind) {
    case 'none':
      return panelErrorResponse(request, 404, 'There are no profiles', 'No profiles found.');
    case 'missing':
      return panelErrorResponse(request, 404, 'Token not found', `Token "${lookup.token}" not found.`);
    case 'dropped':
      return panelErrorResponse(request, 404, 'Profile dropped', `The profile of token "${lookup.token}" was dropped and is not available: ${lookup.reason}`);
    case 'unreadable':
      return panelErrorResponse(request, 500, 'Profile unreadable', unreadableProfileMessage(lookup.token, lookup.reason));
  }
}

/** `/_profiler/{token}/compare/{other}`: the profile `other` (B) measured against `token` (A), or why one cannot be. */
export async function compareResponse(source: ProfileSource & { readonly stats: () => ProfilerStats | null }, request: LoupeRequest, token: string, other: string): Promise<LoupeResponse> {
  const a = await loadProfile(source, token);
  if (a.kind !== 'found') return notFoundResponse(request, a);
  const b = await loadProfile(source, other);
  if (b.kind !== 'found') return notFoundResponse(request, b);
  const comparison = compareProfiles(a.profile, b.profile);
  return negotiatedResponse(request, 200, { json: () => comparison, html: () => renderComparePage(comparison, source.stats()) });
}
