import { type LoupeRequest } from '../../../http/request';

/**
 * Why a POST to the profiler looks sent by another site's page, or `null`: an action that connects
 * to a database (EXPLAIN) must not run because a page elsewhere posted a form to it (CSRF). A
 * browser says where a POST comes from in `Sec-Fetch-Site` (Fetch Metadata) and `Origin`; either
 * naming another site refuses it. A request with neither comes from no browser page (curl, a
 * script), which no other site can make a browser send; the access rule applies to it as to all.
 */
export function crossSiteRefusal(request: LoupeRequest): string | null {
  const site = request.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `The profiler's actions take a POST from its own pages only, not from a ${site} page (Sec-Fetch-Site).`;
  const origin = request.header('origin');
  if (origin === undefined) return null;
  const host = request.header('host') ?? '';
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = '';
  }
  return originHost !== '' && originHost.toLowerCase() === host.toLowerCase() ? null : `The profiler's actions take a POST from its own pages only, not from "${origin}" (Origin).`;
}
