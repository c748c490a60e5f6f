import Redis from 'ioredis';
import { answers, exited, spawnRedisServer } from './redis-process';

/**
 * A redis-server of the test's own, on a port from 6401 to 6419 (6401–6406 the fault suite, 6407–6408 the profiler's flush and pause tests, 6416 the adapters' Redis-away test), keeping nothing on disk: the
 * fault tests kill, pause, flush and starve it, which must never happen to the shared Redis.
 */
export interface ThrowawayRedis {
  readonly port: number;
  readonly url: string;
  /**
   * The test's own client: no command timeout and no retry limit, so a command sent while Redis
   * is paused or restarting waits for it (`await admin.ping()` resolves when a pause ends).
   */
  readonly admin: Redis;
  /** SIGKILL, as a crash; resolves once the process is gone. */
  kill(): Promise<void>;
  /** `SHUTDOWN NOSAVE`, as an operator's restart; resolves once the process is gone. */
  shutdown(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Kills it and closes the client: for `finally`. */
  stop(): Promise<void>;
}

/** Starts a throwaway redis-server on `port` (6401–6419); fails if something already listens there. */
export async function startThrowawayRedis(port: number): Promise<ThrowawayRedis> {
  if (port < 6401 || port > 6419) throw new Error(`throwaway Redis ports are 6401–6419, not ${port}`);
  if (await answers(port)) {
    throw new Error(`port ${port} is in use: a redis-server left by an earlier run? Stop it with redis-cli -p ${port} shutdown nosave`);
  }
  let child = await spawnRedisServer(port);
  const url = `redis://127.0.0.1:${port}`;
  const admin = new Redis(url, { connectionName: 'loupe-fault-admin', maxRetriesPerRequest: null, retryStrategy: () => 50 });
  admin.on('error', () => undefined);
  await admin.ping();
  return {
    port,
    url,
    admin,
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    shutdown: async () => {
      const gone = exited(child);
      // Not through `admin`: it would send SHUTDOWN again once reconnected to the next server.
      const once = new Redis(url, { connectionName: 'loupe-fault-shutdown', retryStrategy: () => null, maxRetriesPerRequest: 0 });
      once.on('error', () => undefined);
      await once.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
      await gone;
      once.disconnect();
    },
    restart: async () => {
      await exited(child);
      child = await spawnRedisServer(port);
      await admin.ping();
    },
    stop: async () => {
      admin.disconnect();
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}
