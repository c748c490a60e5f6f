/** A path segment that names one item rather than an endpoint: a number, a UUID, hex, or a long token. */
const ID_SEGMENT = /^(?:\d+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{8,}|[A-Za-z0-9_-]{20,})$/i;

/**
 * What a loop of HTTP calls repeats: the method, the origin and the path with its id-like
 * segments as `{id}`, without the query. So `GET /item/1`, `/item/2`, `/item/3` are one endpoint
 * called three times, as `?id=1`, `?id=2` already were.
 */
export function httpCallShape(method: string, url: string): string {
  const [whole = ''] = url.split(/[?#]/, 1);
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(whole)?.[0] ?? '';
  const path = whole
    .slice(origin.length)
    .split('/')
    .map((segment) => (ID_SEGMENT.test(segment) ? '{id}' : segment))
    .join('/');
  return `${method} ${origin.toLowerCase()}${path}`;
}
