import { spawn } from 'node:child_process';
import path from 'node:path';
import { main, type CliOptions } from '../../src/cli/main';
import { TYPESCRIPT } from '../helpers/typescript-loader';
import { testKeyPrefix } from '../helpers/test-redis';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');

/** Child processes at once per test file: CI has few cores. */
const MAX_RUNNING = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (running >= MAX_RUNNING) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

export interface LoupeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node bin/loupe.js …` as a child process, from the TypeScript sources (never a stale
 * dist/; through the tests' compilation cache, see TYPESCRIPT), with standard input not a
 * terminal, as in CI.
 */
export async function runLoupe(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Promise<LoupeRun> {
  const release = await slot();
  try {
    return await spawnLoupe(args, env);
  } finally {
    release();
  }
}

function spawnLoupe(args: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<LoupeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...TYPESCRIPT, BIN, ...args], {
      cwd: ROOT,
      // A key prefix of its own unless the test names one: never the developer's `loupe:` profiles.
      env: { ...process.env, LOUPE_CLI_FROM_SOURCE: '1', REDIS_PREFIX: testKeyPrefix(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    // A CLI that does not quit Redis never exits: fail with what it printed instead of hanging.
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`loupe ${args.join(' ')} did not exit within 60 s.\n${Buffer.concat(stderr).toString('utf8')}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}

/** The rows of a `profiler:list` table: the cells of each line under the header and the rule. */
export function tableRows(stdout: string): { token: string; status: string; method: string; url: string; ip: string; time: string; duration: string; queries: string; parent: string }[] {
  return stdout
    .trimEnd()
    .split('\n')
    .slice(2)
    .map((line) => {
      const [token = '', status = '', method = '', url = '', ip = '', time = '', duration = '', queries = '', parent = ''] = line.split(/\s{2,}/);
      return { token, status, method, url, ip, time, duration, queries, parent };
    });
}

/**
 * Runs `loupe …` in this process through the CLI's `main(argv, io)`, as bin/loupe.js does but
 * without compiling the CLI again in a child process; standard input is not a terminal.
 */
export async function runMain(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}, options: CliOptions = {}): Promise<LoupeRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(args, {
    env: { ...process.env, REDIS_PREFIX: testKeyPrefix(), ...env },
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    interactive: false,
    confirm: () => Promise.resolve(false),
  }, options);
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}
