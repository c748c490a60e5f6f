import { LoupeError } from '../errors/loupe-error';
import { REDIS_TIMEOUT_DEFAULTS, type RedisTimeouts } from './redis-config';
import { createRedisClient, describeRedisUrl, isClusterUrl, type RedisClient } from './redis-client';
import { withDeadline } from './with-deadline';

/** How to get a Redis when none answers; shown by the server, `make run` and the tests. */
export const REDIS_HELP =
  'Start one with `docker compose up -d redis`, or `redis-server --port 6379 --save ""`, ' +
  'or point REDIS_URL at a Redis you have (e.g. REDIS_URL=redis://127.0.0.1:6379).';

/** What to check when no node of a cluster answers, or the cluster is not serving every slot. */
export const REDIS_CLUSTER_HELP =
  'Check that REDIS_CLUSTER_NODES (or REDIS_URL=redis+cluster://…) names nodes of a running cluster ' +
  'and that its state is ok: `redis-cli -c -p <port> cluster info` says cluster_state:ok.';

/** The help that fits `url`: how to start a Redis, or what to check of a cluster. */
export function redisHelp(url: string): string {
  return isClusterUrl(url) ? REDIS_CLUSTER_HELP : REDIS_HELP;
}

/** Why a connection at start failed, for the message: the deadline, or what ioredis said. */
function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A connected ioredis client (a `Cluster` for a `redis+cluster://` URL), or an error saying where
 * Redis was looked for and how to get one.
 * Every command fails after `commandTimeoutMs` (a paused or overloaded Redis costs a request at
 * most that long), and the connection must answer a PING within `connectTimeoutMs`, so a Redis
 * that accepts connections but never answers stops the start instead of hanging it. A cluster
 * must also say that every slot is served (ioredis' ready check, CLUSTER INFO) by then.
 * The caller owns the client and quits it.
 */
export async function connectRedis(url: string, name: string, timeouts: RedisTimeouts = REDIS_TIMEOUT_DEFAULTS): Promise<RedisClient> {
  const redis = createRedisClient(url, {
    name,
    connectTimeoutMs: timeouts.connectTimeoutMs,
    commandTimeoutMs: timeouts.commandTimeoutMs,
    offlineQueue: true,
    maxRetriesPerRequest: 1,
    // Give up quickly at start; once connected, reconnect forever with a capped backoff.
    maxReconnectDelayMs: 2_000,
    lazyConnect: true,
  });
  // ioredis emits 'error' on every failed reconnect; without a listener Node would print each one.
  // The first one says why a start failed better than the "Connection is closed." that follows it.
  let firstError: unknown;
  const onError = (error: unknown): void => void (firstError ??= error);
  redis.on('error', onError);
  // A cluster reports what its nodes answered as 'node error' (a refused connection, CLUSTERDOWN).
  redis.on('node error', onError);
  try {
    const ready = redis.connect().then(() => redis.ping());
    await withDeadline(ready, timeouts.connectTimeoutMs, `no answer within ${timeouts.connectTimeoutMs} ms (REDIS_CONNECT_TIMEOUT_MS)`);
  } catch (error) {
    redis.disconnect();
    throw new LoupeError('LOUPE_ERR_REDIS_UNAVAILABLE', `Cannot reach ${describeRedisUrl(url)}. ${redisHelp(url)} (${reasonOf(firstError ?? error)})`, { cause: error });
  }
  redis.off('error', onError);
  redis.off('node error', onError);
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Closes a client: QUIT when Redis answers at once, else drops the connection, so that a hung
 * Redis never holds a shutdown for longer than `ms`.
 */
export async function closeRedis(redis: RedisClient, ms = 500): Promise<void> {
  // A QUIT that fails or is not answered needs no report: the connection is dropped either way.
  await withDeadline(redis.quit(), ms, 'QUIT was not answered').catch(() => undefined);
  redis.disconnect();
}
