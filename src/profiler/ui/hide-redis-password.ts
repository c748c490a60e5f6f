import { hideClusterPassword } from '../../redis/cluster-nodes';
import { isClusterUrl } from '../../redis/redis-client';

/** A Redis URL fit to show (a page, a message): its password, if any, replaced by `***`. */
export function hideRedisPassword(url: string): string {
  if (isClusterUrl(url)) return hideClusterPassword(url);
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
