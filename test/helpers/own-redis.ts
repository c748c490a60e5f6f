import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** Ports for throwaway redis-servers: tests that FLUSH or PAUSE a Redis never touch the shared one. */
const PORTS = [6391, 6392, 6393, 6394, 6395, 6396, 6397, 6398, 6399];

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** Kills the server (nothing is kept on disk). */
  stop(): void;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Starts redis-server on `port`; null when it exits instead (the port is taken). */
async function tryPort(port: number): Promise<ChildProcess | null> {
  if (await answers(port)) return null;
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  // Its own "ready" line, not merely an answer on the port: another test may have taken it.
  const ready = await new Promise<boolean>((resolve) => {
    let output = '';
    const timer = setTimeout(() => resolve(false), 5_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.on('error', () => resolve(false));
    child.on('exit', () => resolve(false));
  });
  if (ready) {
    child.stdout?.resume();
    return child;
  }
  child.kill('SIGKILL');
  return null;
}

/**
 * A redis-server of the test's own on the first free port from 6391 to 6399, keeping nothing on
 * disk, for tests that flush or pause Redis. Fails with how to install redis-server.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  for (const port of PORTS) {
    const child = await tryPort(port);
    if (child !== null) return { port, url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
  }
  throw new Error('No redis-server of its own could be started on ports 6391–6399: install it (apt-get install -y redis-server, or scripts/ensure-test-tools.sh as root) or free a port.');
}
