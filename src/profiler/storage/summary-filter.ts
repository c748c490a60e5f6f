import { type ProfileSummary } from '../profile';
import { type ProfileCriteria } from './profile-storage';

/** The path of a URL, as the find script reads it: what `hideFavicon` compares. */
const URL_PATH = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/;

/**
 * Whether a readable search row matches `criteria`'s filters, read as Redis' find script reads
 * them (redis-scripts.ts): empty filters match everything, the method is compared in capitals,
 * the URL is a substring, a status class wins over a status code, and a row without the I/O
 * counters counts as no queries. The time range, sort and paging are the storage's.
 */
export function summaryFilter(criteria: ProfileCriteria): (row: ProfileSummary) => boolean {
  const method = criteria.method?.toUpperCase() ?? '';
  const minQueries = criteria.minQueries === undefined ? null : Math.max(0, Math.floor(criteria.minQueries));
  const { ip, url, route, statusClass, statusCode } = criteria;
  return (row) => {
    if (ip !== undefined && ip !== '' && row.ip !== ip) return false;
    if (method !== '' && row.method !== method) return false;
    if (route !== undefined && route !== '' && row.route !== route) return false;
    if (statusClass !== undefined) {
      if (Math.floor(row.statusCode / 100) !== statusClass) return false;
    } else if (statusCode !== undefined && row.statusCode !== statusCode) return false;
    if (url !== undefined && url !== '' && !row.url.includes(url)) return false;
    if (criteria.mainRequestsOnly === true && row.parent !== null) return false;
    if (criteria.aborted === true && !(row.aborted === true || row.statusCode === 0)) return false;
    if (criteria.nPlusOne === true && !((row.nPlusOne ?? 0) > 0)) return false;
    if (minQueries !== null && (row.queries ?? 0) < minQueries) return false;
    if (criteria.hideFavicon === true && URL_PATH.exec(row.url)?.[1] === '/favicon.ico') return false;
    return true;
  };
}
