import { type LoupeResponse } from '../http/response';

/** What ResponseListener sets when nothing else did; Symfony computes it only when no directive exists. */
const DEFAULT_CACHE_CONTROL = 'no-cache, private';

function parseDirectives(header: string | undefined): Map<string, string | true> {
  const directives = new Map<string, string | true>();
  if (header === undefined || header === DEFAULT_CACHE_CONTROL) return directives;
  for (const part of header.split(',')) {
    const [name = '', value] = part.trim().split('=', 2);
    if (name !== '') directives.set(name.toLowerCase(), value ?? true);
  }
  return directives;
}

/**
 * A response that used the session must not be shared by caches (AbstractSessionListener):
 * private, revalidated, with `max-age` kept only on a response that was not public, and
 * `Expires` at now + max-age. Typically `Cache-Control: max-age=0, must-revalidate, private`.
 */
export function applySessionCacheControl(response: LoupeResponse, now: Date = new Date()): void {
  const directives = parseDirectives(response.headers.get('Cache-Control'));
  const current = Number(directives.get('max-age'));
  const maxAge = directives.has('public') || !Number.isInteger(current) || current < 0 ? 0 : current;
  directives.delete('public');
  directives.set('private', true);
  directives.set('max-age', String(maxAge));
  directives.set('must-revalidate', true);
  // Symfony sorts directives by name (ResponseHeaderBag::computeCacheControlValue).
  const value = [...directives]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, v]) => (v === true ? name : `${name}=${v}`))
    .join(', ');
  response.headers.set('Cache-Control', value);
  response.headers.set('Expires', new Date(now.getTime() + maxAge * 1000).toUTCString());
}
