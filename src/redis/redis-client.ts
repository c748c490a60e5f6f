import Redis, { Cluster, Command } from 'ioredis';
import { requestContext } from '../kernel/request-context';
import { CLUSTER_URL, formatClusterNodes, parseClusterUrl } from './cluster-nodes';
import { hideRedisPassword } from './hide-redis-password';

/**
 * A connection to Loupe's Redis: one server, or a Redis Cluster, where ioredis sends each command
 * to the master of its keys' slot. Both have the same commands, events and `status`.
 */
export type RedisClient = Redis | Cluster;

/** How a client waits, retries and names itself; the same for one Redis and for every node of a cluster. */
export interface RedisClientOptions {
  /** CLIENT SETNAME, to tell Loupe's connections apart in CLIENT LIST. */
  readonly name: string;
  readonly connectTimeoutMs: number;
  readonly commandTimeoutMs: number;
  /** False: a command sent while disconnected fails at once instead of waiting for the connection. */
  readonly offlineQueue: boolean;
  /** Times a command is sent again after its connection was lost (ioredis `maxRetriesPerRequest`). */
  readonly maxRetriesPerRequest: number;
  /** Longest pause between two reconnection attempts. */
  readonly maxReconnectDelayMs: number;
  /** True: not connected until `connect()`. */
  readonly lazyConnect: boolean;
  /**
   * False: the client's commands are not published on ioredis' tracing channel (`ioredis:command`).
   * For the profile writer, whose commands carry whole profiles: for every subscriber (Loupe's own
   * capture of the application's commands among them) ioredis would copy each profile back into a
   * string, for a command that is never the application's. Default true.
   */
  readonly traced?: boolean;
}

/** Whether `url` names a Redis Cluster (`redis+cluster://…`). */
export function isClusterUrl(url: string): boolean {
  return CLUSTER_URL.test(url);
}

/** Where a client connects, for messages: `Redis at <url>`, or `the Redis Cluster at <nodes>`, with no password. */
export function describeRedisUrl(url: string): string {
  if (!isClusterUrl(url)) return `Redis at ${hideRedisPassword(url)}`;
  try {
    return `the Redis Cluster at ${formatClusterNodes(parseClusterUrl('REDIS_URL', url).nodes)}`;
  } catch {
    return `the Redis Cluster at ${hideRedisPassword(url)}`;
  }
}

/**
 * An ioredis `Redis` for a `redis://` or `rediss://` URL, a `Cluster` for `redis+cluster://`
 * (`rediss+cluster://`). Reconnects forever with a capped backoff. A cluster's nodes are
 * connected as ioredis does it: a node that goes away is dropped and its slots are asked for
 * again, so that a replica promoted after a failover is found.
 */
export function createRedisClient(url: string, options: RedisClientOptions): RedisClient {
  return outsideRequests(connectTo(url, options), options.traced ?? true);
}

/**
 * Loupe's own commands (sessions, throttling, profiles) are sent outside the request's context,
 * so that the profiler, which captures the application's Redis commands by that context, never
 * counts them as the application's. Where no request context runs (REQUEST_CONTEXT off) nothing
 * is wrapped into one: leaving a context that was never entered costs nothing.
 */
function outsideRequests<TClient extends RedisClient>(client: TClient, traced = true): TClient {
  const send = client.sendCommand.bind(client) as (...args: unknown[]) => unknown;
  Object.defineProperty(client, 'sendCommand', {
    configurable: true,
    writable: true,
    value: (...args: unknown[]) => {
      // ioredis publishes a command once, unless it is marked as published already (a command sent again after a reconnect).
      if (!traced && args[0] instanceof Command) args[0].isTraced = true;
      return requestContext.getStore() === undefined ? send(...args) : requestContext.exit(() => send(...args));
    },
  });
  return client;
}

function connectTo(url: string, options: RedisClientOptions): RedisClient {
  const retryStrategy = (times: number): number => Math.min(times * 100, options.maxReconnectDelayMs);
  if (!isClusterUrl(url)) {
    return new Redis(url, {
      lazyConnect: options.lazyConnect,
      connectionName: options.name,
      connectTimeout: options.connectTimeoutMs,
      commandTimeout: options.commandTimeoutMs,
      enableOfflineQueue: options.offlineQueue,
      maxRetriesPerRequest: options.maxRetriesPerRequest,
      retryStrategy,
    });
  }
  const cluster = parseClusterUrl('REDIS_URL', url);
  return new Cluster(
    cluster.nodes.map(({ host, port }) => ({ host, port })),
    {
      lazyConnect: options.lazyConnect,
      enableOfflineQueue: options.offlineQueue,
      clusterRetryStrategy: retryStrategy,
      // CLUSTER SLOTS is how a failover is learnt: it must not wait longer than a command.
      slotsRefreshTimeout: options.commandTimeoutMs,
      redisOptions: {
        connectionName: options.name,
        connectTimeout: options.connectTimeoutMs,
        // A command keeps its first deadline through ioredis' redirections and failover retries.
        commandTimeout: options.commandTimeoutMs,
        maxRetriesPerRequest: options.maxRetriesPerRequest,
        ...(cluster.username === null ? {} : { username: cluster.username }),
        ...(cluster.password === null ? {} : { password: cluster.password }),
        ...(cluster.tls ? { tls: {} } : {}),
      },
    },
  );
}

/** Whether `client` talks to a Redis Cluster. */
export function isCluster(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/** A new connection like `client` (same nodes, credentials and timeouts) under another name, not connected yet. */
export function duplicateClient(client: RedisClient, name: string): RedisClient {
  if (isCluster(client)) return outsideRequests(client.duplicate([], { lazyConnect: true, redisOptions: { ...client.options.redisOptions, connectionName: name } }));
  return outsideRequests(client.duplicate({ connectionName: name, lazyConnect: true }));
}
