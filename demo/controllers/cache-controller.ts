import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Controller } from '../../src';
import { type DemoCache } from '../io/demo-cache';

/** Seconds a computed value stays in the cache. */
const TTL_SECONDS = 60;

/** The "expensive" work the cache saves: a short wait standing for a slow computation or API. */
const COMPUTE_MS = 30;

/**
 * `GET /io/cache/{key}`: a value computed once and then read from Redis for a minute, through the
 * demo's own ioredis client (the Redis panel lists its GET and SET). It also counts the lookups in
 * the session, whose Redis commands are Loupe's own and so are not in that panel.
 */
export function createCacheController(cache: DemoCache): Controller {
  return {
    name: 'cache.lookup',
    handle: async ({ params, session, stopwatch }) => {
      const key = params['key'] ?? '';
      const { value, hit } = await cache.remember(key, TTL_SECONDS, () =>
        stopwatch.span('compute', async () => {
          await sleep(COMPUTE_MS);
          return { key, sha256: createHash('sha256').update(key).digest('hex'), computedAt: new Date().toISOString() };
        }),
      );
      let lookups: number | null = null;
      if (session !== null) {
        await session.start();
        const previous = session.get('cacheLookups');
        lookups = (typeof previous === 'number' ? previous : 0) + 1;
        session.set('cacheLookups', lookups);
      }
      return { key, hit, ttl: TTL_SECONDS, value, lookupsThisSession: lookups };
    },
  };
}
