import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import Redis from 'ioredis';

/**
 * A redis-server of the test's own, on a port from 6401 to 6419 (6401–6406 the fault suite, 6407–6408 the profiler's flush and pause tests), keeping nothing on disk: the
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

const START_TIMEOUT_MS = 10_000;

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Spawns redis-server and resolves once it says it accepts connections (bounded), else rejects with its output. */
function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (!output.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`redis-server could not be run (${error.message}): install it with apt-get install -y redis-server (make test-tools does).`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server on port ${port} exited (${String(code)}) before accepting connections:\n${output}`));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a throwaway redis-server on `port` (6401–6419); fails if something already listens there. */
export async function startThrowawayRedis(port: number): Promise<ThrowawayRedis> {
  if (port < 6401 || port > 6419) throw new Error(`throwaway Redis ports are 6401–6419, not ${port}`);
  if (await answers(port)) {
    throw new Error(`port ${port} is in use: a redis-server left by an earlier run? Stop it with redis-cli -p ${port} shutdown nosave`);
  }
  let child = await spawnRedis(port);
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
      child = await spawnRedis(port);
      await admin.ping();
    },
    stop: async () => {
      admin.disconnect();
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}
