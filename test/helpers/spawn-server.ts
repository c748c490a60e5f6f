import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface SpawnedServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly port: number;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

const DEMO = ['-r', 'ts-node/register/transpile-only', path.join(ROOT, 'demo', 'main.ts')];

function demoEnv(env: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  return { ...process.env, HOST: '127.0.0.1', PORT: '0', APP_ENV: 'test', ...env };
}

/**
 * Runs `node args…` in `cwd` and resolves once its output matches `listening`, whose first group
 * is the port; rejects with the output if it exits first.
 */
export function spawnListening(args: readonly string[], options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly listening: RegExp }): Promise<SpawnedServer> {
  const child = spawn(process.execPath, [...args], { cwd: options.cwd, env: options.env });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = options.listening.exec(output);
      if (match?.[1] !== undefined) resolve({ child, port: Number(match[1]), output: () => output, exited });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`The process exited (${String(code)}) before listening:\n${output}`)));
  });
}

/** Starts `demo/main.ts` in its own process on a free port, as `make run` would (through ts-node). */
export function spawnServer(env: Readonly<Record<string, string>> = {}): Promise<SpawnedServer> {
  return spawnListening(DEMO, { cwd: ROOT, env: demoEnv(env), listening: /Loupe listening on http:\/\/127\.0\.0\.1:(\d+)/ });
}

/** Runs `demo/main.ts` to its end and returns its exit code and output. */
export async function runServerToExit(env: Readonly<Record<string, string>>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, DEMO, { cwd: ROOT, env: demoEnv(env) });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, output };
}
