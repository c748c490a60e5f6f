import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Redis, { Cluster } from 'ioredis';
import { answers, exited, spawnRedisServer } from './redis-process';

/**
 * A Redis Cluster of the test's own: three masters with a replica each, on 127.0.0.1 ports
 * 6420–6425 (the other throwaway servers use 6401–6419), keeping nothing on disk but the nodes'
 * configuration files in a directory of its own. The cluster tests kill its masters.
 */
export interface ThrowawayCluster {
  readonly ports: readonly number[];
  /** `redis+cluster://127.0.0.1:6420,…`: every node, as a seed. */
  readonly url: string;
  /** The test's own client of the cluster: no command timeout, so it waits through a failover. */
  readonly admin: Cluster;
  /** A plain client of one node, connected on first use; closed by stop(). */
  node(port: number): Redis;
  /** The ports of the masters serving slots now, as the nodes still running say. */
  masters(): Promise<number[]>;
  /** The port of the master serving `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** SIGKILL to the node on `port`, as a crash; resolves once the process is gone. */
  kill(port: number): Promise<void>;
  /** Resolves once every running node says cluster_state:ok and every slot has a master that runs, within `timeoutMs`. */
  whenOk(timeoutMs?: number): Promise<void>;
  /** Kills every node, closes the clients, deletes the directory: for `finally`. */
  stop(): Promise<void>;
}

const PORTS = [6420, 6421, 6422, 6423, 6424, 6425] as const;
const run = promisify(execFile);

/** Every node process started by this worker: a worker stopped by ava (a timeout) must not leave them running. */
const running = new Set<ChildProcess>();
let watching = false;

function track(child: ChildProcess): void {
  if (!watching) {
    watching = true;
    process.on('exit', () => {
      for (const node of running) node.kill('SIGKILL');
    });
  }
  running.add(child);
  child.on('exit', () => running.delete(child));
}

/** Starts one cluster-enabled node, its configuration file in `dir`. */
function spawnNode(port: number, dir: string): Promise<ChildProcess> {
  return spawnRedisServer(port, ['--dir', dir, '--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '1000']).then((child: ChildProcess) => {
    track(child);
    return child;
  });
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts six nodes, joins them with `redis-cli --cluster create … --cluster-replicas 1`, and
 * resolves once the cluster is ok and every replica has its master's data. Fails if one of the
 * ports is taken (a cluster left by an earlier run: `redis-cli -p 6420 shutdown nosave`, and so on).
 */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  for (const port of PORTS) {
    if (await answers(port)) throw new Error(`port ${port} is in use: a cluster node left by an earlier run? Stop it with redis-cli -p ${port} shutdown nosave`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'loupe-cluster-'));
  const children = new Map<number, ChildProcess>();
  const clients = new Map<number, Redis>();
  const node = (port: number): Redis => {
    let client = clients.get(port);
    if (client === undefined) {
      client = new Redis(port, '127.0.0.1', { connectionName: 'loupe-test-cluster-node', maxRetriesPerRequest: 0, retryStrategy: () => null, commandTimeout: 2_000 });
      client.on('error', () => undefined);
      clients.set(port, client);
    }
    return client;
  };
  const alive = (): number[] => PORTS.filter((port) => children.get(port)?.exitCode === null && children.get(port)?.signalCode === null);
  let admin: Cluster | undefined;
  const stop = async (): Promise<void> => {
    admin?.disconnect();
    for (const client of clients.values()) client.disconnect();
    for (const child of children.values()) child.kill('SIGKILL');
    await Promise.all([...children.values()].map(exited));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const [port, child] of await Promise.all(PORTS.map(async (port) => [port, await spawnNode(port, dir)] as const))) children.set(port, child);
    await run('redis-cli', ['--cluster', 'create', ...PORTS.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes'], { timeout: 30_000 });
    const whenOk = async (timeoutMs = 20_000): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        const states = await Promise.all(alive().map((port) => node(port).cluster('INFO').then(String, (error: unknown) => String(error))));
        const masters = await mastersServing(node, alive()).catch(() => []);
        if (states.every((info) => info.includes('cluster_state:ok')) && masters.length === 3 && masters.every((port) => alive().includes(port))) return;
        last = `${states.map((info) => /cluster_state:\w+/.exec(info)?.[0] ?? info).join(', ')}; masters ${masters.join(', ')}`;
        if (Date.now() > deadline) throw new Error(`the cluster is not ok after ${timeoutMs} ms: ${last}`);
        await pause(100);
      }
    };
    await whenOk();
    // A replica that has not loaded its master's data yet could not take over.
    for (;;) {
      const replication = await Promise.all(PORTS.map((port) => node(port).info('replication')));
      if (replication.every((info) => info.includes('role:master') || info.includes('master_link_status:up'))) break;
      await pause(100);
    }
    admin = new Cluster([{ host: '127.0.0.1', port: PORTS[0] }], { redisOptions: { connectionName: 'loupe-test-cluster-admin' } });
    admin.on('error', () => undefined);
    await admin.ping();
    const connected = admin;
    return {
      ports: PORTS,
      url: `redis+cluster://${PORTS.map((port) => `127.0.0.1:${port}`).join(',')}`,
      admin: connected,
      node,
      masters: () => mastersServing(node, alive()),
      masterOf: async (key) => {
        const first = node(alive()[0] ?? PORTS[0]);
        const slot = await first.cluster('KEYSLOT', key);
        const master = (await first.cluster('SLOTS')).find(([start, end]) => start <= slot && slot <= end)?.[2];
        if (master === undefined) throw new Error(`no master serves slot ${slot} of ${key}`);
        return master[1];
      },
      kill: async (port) => {
        const child = children.get(port);
        if (child === undefined) throw new Error(`no node on port ${port}`);
        child.kill('SIGKILL');
        await exited(child);
        clients.get(port)?.disconnect();
        clients.delete(port);
      },
      whenOk,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

type NodeOf = (port: number) => Redis;

/** The ports of the masters that serve slots, as CLUSTER SLOTS on the first running node says. */
async function mastersServing(node: NodeOf, alive: readonly number[]): Promise<number[]> {
  const [first] = alive;
  if (first === undefined) return [];
  const ranges = await node(first).cluster('SLOTS');
  return [...new Set(ranges.flatMap(([, , master]) => (master === undefined ? [] : [master[1]])))].sort();
}
