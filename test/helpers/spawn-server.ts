import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { testKeyPrefix } from './test-redis';
import { TYPESCRIPT } from './typescript-loader';
import { deleteKeys } from './test-server';

const ROOT = path.resolve(__dirname, '..', '..');

export interface SpawnedServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly port: number;
  /** The Redis key prefix it runs under (its own unless the test gave one). */
  readonly prefix: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Stops it with SIGTERM unless it exited already, then deletes its keys; answers the exit code. */
  close(): Promise<number | null>;
}

const DEMO = [...TYPESCRIPT, path.join(ROOT, 'demo', 'main.ts')];

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** Children still running: a test worker that ava stops (a timeout) must not leave servers behind. */
const running = new Set<ChildProcessWithoutNullStreams>();
let watching = false;

function track(child: ChildProcessWithoutNullStreams): void {
  if (!watching) {
    watching = true;
    process.on('exit', killRunning);
    // ava stops a worker with SIGTERM, which skips 'exit' handlers unless one is registered.
    process.once('SIGTERM', () => process.exit(143));
  }
  running.add(child);
  child.on('exit', () => running.delete(child));
}

function killRunning(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** The demo's environment: a free port and, unless `env` names one, a key prefix of its own, never the developer's `loupe:`. */
function demoEnv(env: Readonly<Record<string, string>>): NodeJS.ProcessEnv & { REDIS_PREFIX: string } {
  return { ...process.env, HOST: '127.0.0.1', PORT: '0', APP_ENV: 'test', REDIS_PREFIX: testKeyPrefix(), ...env };
}

/**
 * Runs `node args…` in `cwd` and resolves once its output matches `listening`, whose first group
 * is the port; rejects with the output if it exits first. `node`: another Node executable than this one.
 */
export function spawnListening(
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv & { REDIS_PREFIX: string }; readonly listening: RegExp; readonly node?: string },
): Promise<SpawnedServer> {
  const child = spawn(options.node ?? process.execPath, [...args], { cwd: options.cwd, env: options.env });
  track(child);
  const prefix = options.env.REDIS_PREFIX;
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const close = async (): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const code = await exited;
    await deleteKeys(REDIS_URL, prefix);
    return code;
  };
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = options.listening.exec(output);
      if (match?.[1] !== undefined) resolve({ child, port: Number(match[1]), prefix, output: () => output, exited, close });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`The process exited (${String(code)}) before listening:\n${output}`)));
  });
}

/** Starts `demo/main.ts` in its own process on a free port, from the sources as `make dev` would (see TYPESCRIPT), under `node`. */
export function spawnServer(env: Readonly<Record<string, string>> = {}, node = process.execPath): Promise<SpawnedServer> {
  return spawnListening(DEMO, { cwd: ROOT, env: demoEnv(env), listening: /Loupe listening on http:\/\/127\.0\.0\.1:(\d+)/, node });
}

/** Runs `demo/main.ts` under `node` to its end, deletes the keys it left, and returns its exit code and output. */
export async function runServerToExit(env: Readonly<Record<string, string>>, node = process.execPath): Promise<{ code: number | null; output: string }> {
  const demo = demoEnv(env);
  const child = spawn(node, DEMO, { cwd: ROOT, env: demo });
  track(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  await deleteKeys(REDIS_URL, demo.REDIS_PREFIX);
  return { code, output };
}
