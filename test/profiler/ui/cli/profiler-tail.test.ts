import test from 'ava';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { httpRequest } from '../../../helpers/http-client';
import { spawnServer, type SpawnedServer } from '../../../helpers/spawn-server';
import { testKeyPrefix } from '../../../helpers/test-redis';
import { TYPESCRIPT } from '../../../helpers/typescript-loader';
import { startTestServer } from '../../../helpers/test-server';
import { runLoupe } from '../../../cli/run-loupe';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');

interface Tail {
  readonly child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout has a line containing `text`; rejects after `ms` with what was printed. */
  waitForLine(text: string, ms?: number): Promise<string>;
  /** Sends SIGINT and resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

/** What the line of `token` contains: the token column, between two-space gaps (a sub-request's line names its parent at the end). */
const column = (token: unknown): string => `  ${String(token)}  `;

/** `loupe profiler:tail …` as its own process, resolved once it says it is subscribed. */
function startTail(prefix: string, args: readonly string[] = []): Promise<Tail> {
  const child = spawn(process.execPath, [...TYPESCRIPT, BIN, 'profiler:tail', ...args], { cwd: ROOT, env: { ...process.env, LOUPE_CLI_FROM_SOURCE: '1', REDIS_PREFIX: prefix } });
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const tail: Tail = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitForLine: (text, ms = 30_000) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const line = stdout.split('\n').find((candidate) => candidate.includes(text));
          if (line === undefined) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(line);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No line with "${text}" within ${ms} ms.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        }, ms);
        waiters.add(check);
        check();
      }),
    interrupt: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Waiting for profiles')) resolve(tail);
    });
    void exited.then((code) => reject(new Error(`profiler:tail exited (${String(code)}) before subscribing:\n${stderr}`)));
  });
}

let server: SpawnedServer | undefined;

test.after.always(async () => {
  await server?.close();
});

test.serial('profiler:tail prints the requests of other server processes sharing the prefix, until SIGINT (exit 0)', async (t) => {
  const prefix = testKeyPrefix();
  server = await spawnServer({ REDIS_PREFIX: prefix });
  const inProcess = await startTestServer({ REDIS_PREFIX: prefix });
  const tail = await startTail(prefix);
  try {
    const fromChild = await httpRequest(server.port, { path: '/hello/anna?token=s3cret' });
    const fromOther = await httpRequest(inProcess.port, { path: '/config.yaml' });
    const childLine = await tail.waitForLine(column(fromChild.headers['x-debug-token']));
    t.regex(childLine, /^\d{4}-\d\d-\d\dT\S+Z {2}GET +200 +[\d.]+ m?s {2}[0-9a-f]{6} {2}\/hello\/anna\?token=/);
    t.false(childLine.includes('s3cret'), childLine);
    const otherLine = await tail.waitForLine(column(fromOther.headers['x-debug-token']));
    t.regex(otherLine, / 404 .* \/config\.yaml$/);
    // Its error page was rendered by a sub-request, which names it, on the line right after its parent's.
    const subLine = await tail.waitForLine(`(sub-request of ${String(fromOther.headers['x-debug-token'])})`);
    const lines = tail.stdout().split('\n');
    t.is(lines.indexOf(subLine), lines.indexOf(otherLine) + 1, tail.stdout());
  } finally {
    t.is(await tail.interrupt(), 0);
    // Stopped by the user, the command does not announce a reconnection it will not make.
    t.false(tail.stderr().includes('Lost the connection'), tail.stderr());
    await inProcess.close();
  }
});

test.serial('profiler:tail --status 5xx prints only the server errors', async (t) => {
  const prefix = server?.prefix ?? testKeyPrefix();
  const tail = await startTail(prefix, ['--status', '5xx']);
  try {
    if (server === undefined) throw new Error('The server of the first test did not start.');
    const notFound = await httpRequest(server.port, { path: '/nowhere' });
    const boom = await httpRequest(server.port, { path: '/boom' });
    t.is(boom.status, 500);
    const line = await tail.waitForLine(column(boom.headers['x-debug-token']));
    t.regex(line, / 500 .* \/boom$/);
    // Profiles of one server are announced in the order they were stored: the 404 came first.
    t.false(tail.stdout().includes(String(notFound.headers['x-debug-token'])), tail.stdout());
    t.true(tail.stdout().split('\n').filter((row) => row !== '').every((row) => / 500 /.test(row)), tail.stdout());
  } finally {
    t.is(await tail.interrupt(), 0);
  }
});

test('profiler:tail refuses a status filter it cannot read, with its usage', async (t) => {
  const run = await runLoupe(['profiler:tail', '--status', '6xx']);
  t.is(run.code, 2);
  t.regex(run.stderr, /--status expects a status code \(404\) or a class \(5xx\), got "6xx"/);
  t.regex(run.stderr, /Usage: loupe profiler:tail/);
});
