import { invalid } from '../config/env-values';
import { hideRedisPassword } from './hide-redis-password';

/** One seed node of a Redis Cluster. */
export interface ClusterNode {
  /** A host name or IP address; an IPv6 address without its brackets. */
  readonly host: string;
  /** The node's TCP port, 1 to 65535. */
  readonly port: number;
}

/** A Redis Cluster: the nodes to ask for its layout first, and how to log in to every node. */
export interface RedisClusterConfig {
  /** Seed nodes: any of them that answers tells ioredis where every slot lives. */
  readonly nodes: readonly ClusterNode[];
  /** The ACL user name every node shares, from the URL's `user@`; `null` for the default user. */
  readonly username: string | null;
  /** The password every node shares, from the URL's `user:password@`; `null` for none. Never logged. */
  readonly password: string | null;
  /** TLS to every node (`rediss+cluster://`). */
  readonly tls: boolean;
}

/** The scheme of a Redis Cluster URL: `redis+cluster://` or, with TLS, `rediss+cluster://`. */
export const CLUSTER_URL = /^(rediss?)\+cluster:\/\//;

const NODE = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]/@,]+)):(\d{1,5})$/;

/**
 * `host:port,host:port` (IPv6 as `[::1]:7000`), or `invalid(name, shown, …)` naming the part that
 * is not; `shown` is the whole value of the variable, as the message quotes it.
 */
export function parseClusterNodes(name: string, raw: string, shown = raw): ClusterNode[] {
  const parts = raw.split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (parts.length === 0) throw invalid(name, shown, 'host:port of at least one cluster node, comma-separated');
  return parts.map((part) => {
    const match = NODE.exec(part);
    const port = Number(match?.[3]);
    const host = match?.[1] ?? match?.[2];
    if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
      throw invalid(name, shown, `host:port of each cluster node, comma-separated ("${part}" is not)`);
    }
    return Object.freeze({ host, port });
  });
}

/**
 * `redis[s]+cluster://[user[:password]@]host:port[,host:port…]`: the seed nodes and credentials
 * every node shares. No database number: a cluster has only database 0.
 */
export function parseClusterUrl(name: string, url: string): RedisClusterConfig {
  const scheme = CLUSTER_URL.exec(url);
  if (scheme === null) throw invalid(name, hideRedisPassword(url), 'a redis+cluster:// or rediss+cluster:// URL');
  let rest = url.slice(scheme[0].length);
  let username: string | null = null;
  let password: string | null = null;
  const at = rest.lastIndexOf('@');
  if (at !== -1) {
    const [user = '', secret] = rest.slice(0, at).split(/:(.*)/s);
    try {
      username = user === '' ? null : decodeURIComponent(user);
      password = secret === undefined || secret === '' ? null : decodeURIComponent(secret);
    } catch {
      throw invalid(name, hideRedisPassword(url), 'user and password percent-encoded');
    }
    rest = rest.slice(at + 1);
  }
  if (rest.endsWith('/') || rest.endsWith('/0')) rest = rest.slice(0, rest.lastIndexOf('/'));
  if (rest.includes('/') || rest.includes('?')) throw invalid(name, hideRedisPassword(url), 'no database number, path or options: a cluster has database 0 only');
  return Object.freeze({ nodes: Object.freeze(parseClusterNodes(name, rest, hideRedisPassword(url))), username, password, tls: scheme[1] === 'rediss' });
}

/** The nodes as `host:port,host:port`, for messages and the normalized URL. */
export function formatClusterNodes(nodes: readonly ClusterNode[]): string {
  return nodes.map(({ host, port }) => `${host.includes(':') ? `[${host}]` : host}:${port}`).join(',');
}
