import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/** How long a redis-server may take to accept connections. */
const START_TIMEOUT_MS = 10_000;

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Resolves once `child` has exited (at once if it has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/**
 * Spawns a redis-server on 127.0.0.1:`port` keeping nothing on disk (`args` adds settings) and
 * resolves once it says it accepts connections (bounded), else rejects with its output.
 */
export function spawnRedisServer(port: number, args: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
