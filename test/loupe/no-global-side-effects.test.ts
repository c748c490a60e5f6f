import test from 'ava';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describeProcessTuning, headLimitWarning } from '../../src/server/tune-process';
import { httpRequest } from '../helpers/http-client';
import { node24OnNewGlibc } from '../helpers/node-24';
import { spawnServer } from '../helpers/spawn-server';
import { TYPESCRIPT } from '../helpers/typescript-loader';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'loupe-globals.ts');
const TUNED = 'process tuned: V8 --no-allocation-site-pretenuring, uWS request heads up to 128 KiB';

interface Tuning {
  readonly pretenuring: { readonly name: string; readonly state: string };
  readonly headLimit: { readonly name: string; readonly state: string };
}

interface Served {
  readonly lines: readonly string[];
  readonly changes: readonly string[];
  readonly tuning: Tuning;
}

/** Runs test/fixtures/loupe-globals.ts `mode` in a process of its own, with no head limit in its environment unless `env` gives one. */
function probe<T>(mode: string, options: { env?: Readonly<Record<string, string>>; nodeArgs?: readonly string[]; node?: string } = {}): Promise<T> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  if (options.env?.['UWS_HTTP_MAX_HEADERS_SIZE'] === undefined) delete env['UWS_HTTP_MAX_HEADERS_SIZE'];
  delete env['NODE_OPTIONS'];
  return new Promise((resolve, reject) => {
    execFile(options.node ?? process.execPath, [...(options.nodeArgs ?? []), ...TYPESCRIPT, FIXTURE, mode], { env, timeout: 50_000 }, (error, stdout, stderr) => {
      if (error !== null) reject(new Error(`${mode}: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as T);
    });
  });
}

/** The changes that are the environment's or Error's. */
const envOrErrors = (changes: readonly string[]): string[] => changes.filter((change) => /^(env\.|Error\.|process\.sourceMapsEnabled)/.test(change));

test('importing loupe-kernel and its subpath entries, then making applications and running requests through inject(), changes nothing global', async (t) => {
  const result = await probe<{ imports: string[]; applications: string[]; written: { v8Flags: string[]; stackTraceLimit: number }; statuses: number[]; tuning: Tuning }>('library');
  t.deepEqual(result.imports, [], 'importing');
  t.deepEqual(result.applications, [], 'createLoupe(), inject() and close()');
  // Even a change put back at once: no V8 flag, no write of Error.stackTraceLimit (the 404, 405 and 413 without debug among them).
  t.deepEqual(result.written, { v8Flags: [], stackTraceLimit: 0 });
  // Prod, then debug: a route, a 404, a 405, a 413 and a 500; in debug a profile read back.
  t.deepEqual(result.statuses, [200, 404, 405, 413, 500, 200, 404, 405, 413, 500, 200]);
  t.is(result.tuning.pretenuring.state, 'pending');
  t.is(result.tuning.headLimit.state, 'pending');
});

test('serve() tunes the process it owns, names it in the listening line, and leaves the environment as it was', async (t) => {
  const result = await probe<Served>('serve');
  const line = result.lines.find((each) => each.startsWith('Loupe listening on'));
  t.regex(line ?? '', /^Loupe listening on http:\/\/127\.0\.0\.1:\d+ \(APP_ENV=prod, debug off, no Redis: .*\)/);
  t.true(line?.endsWith(`; ${TUNED})`), line);
  t.is(result.tuning.pretenuring.state, 'applied');
  t.is(result.tuning.headLimit.state, 'applied');
  // UWS_HTTP_MAX_HEADERS_SIZE was set while uWS loaded only; serve() adds its SIGINT and SIGTERM handlers.
  t.deepEqual(envOrErrors(result.changes), []);
  t.true(result.changes.includes('process.on(SIGTERM): (none) → 1'), result.changes.join('\n'));
});

test('listen() without serve() tunes the process as well, and leaves the environment as it was', async (t) => {
  const result = await probe<Served>('listen');
  t.deepEqual(result.tuning, { pretenuring: { name: 'V8 --no-allocation-site-pretenuring', state: 'applied' }, headLimit: { name: 'uWS request heads up to 128 KiB', state: 'applied' } });
  t.deepEqual(envOrErrors(result.changes), []);
  t.deepEqual(result.lines, []);
});

test("a process started with its own pretenuring flag and head limit keeps them, and the listening line names nothing Loupe did not do", async (t) => {
  const result = await probe<Served>('serve', { nodeArgs: ['--allocation-site-pretenuring'], env: { UWS_HTTP_MAX_HEADERS_SIZE: '65536' } });
  t.deepEqual(result.tuning, { pretenuring: { name: 'V8 --no-allocation-site-pretenuring', state: 'kept' }, headLimit: { name: 'uWS request heads up to 65536 bytes', state: 'kept' } });
  const line = result.lines.find((each) => each.startsWith('Loupe listening on'));
  t.false(line?.includes('process tuned'), line);
  t.deepEqual(envOrErrors(result.changes), []);
});

test('a uWS loaded before listen() missed the head limit, which the listening line then does not claim', async (t) => {
  const result = await probe<Served>('uws-first');
  t.is(result.tuning.headLimit.state, 'missed');
  t.is(result.tuning.pretenuring.state, 'applied');
  // Node 20's uWS has no 4 KiB default to warn about; Node 22's and later do.
  const warned = result.lines.filter((line) => line.includes('loaded before Loupe could give it a request-head limit'));
  t.is(warned.length, Number(process.versions.modules) >= 127 ? 1 : 0);
});

test('the warning for a missed head limit names the 4 KiB default and how to avoid it, on the uWS builds that have that default only', (t) => {
  const missed = { name: 'uWS request heads up to 128 KiB', state: 'missed' } as const;
  t.regex(headLimitWarning(missed, '127') ?? '', /answers 431 to a request line and headers over 4 KiB .*UWS_HTTP_MAX_HEADERS_SIZE=131072/);
  t.is(headLimitWarning(missed, '115'), null);
  t.is(headLimitWarning({ ...missed, state: 'applied' }, '137'), null);
});

test('the listening line names what Loupe applied, and nothing when it applied nothing', (t) => {
  const pretenuring = { name: 'V8 --no-allocation-site-pretenuring', state: 'applied' } as const;
  const headLimit = { name: 'uWS request heads up to 128 KiB', state: 'applied' } as const;
  t.is(describeProcessTuning({ pretenuring, headLimit }), TUNED);
  t.is(describeProcessTuning({ pretenuring, headLimit: { ...headLimit, state: 'missed' } }), 'process tuned: V8 --no-allocation-site-pretenuring');
  t.is(describeProcessTuning({ pretenuring: { ...pretenuring, state: 'kept' }, headLimit: { ...headLimit, state: 'pending' } }), null);
});

// Node 24's uWS reads UWS_HTTP_MAX_HEADERS_SIZE once, as it loads, and refuses heads over 4 KiB
// without it: the variable set only while it loads must be enough. Setting it up downloads
// Debian 13's libc and Node 24 once (.cache/artifacts/); it fails with why rather than skip.
test("under Node 24 serve()'s 128 KiB head limit holds with the environment put back, and a uWS loaded first is warned about", async (t) => {
  t.timeout(180_000);
  const node = await node24OnNewGlibc();
  const server = await spawnServer({ APP_ENV: 'prod', APP_SECRET: 'globals-test' }, node);
  try {
    t.true(server.output().includes(`; ${TUNED})`), server.output());
    t.is((await httpRequest(server.port, { path: '/hello/anna', headers: { 'X-Big': 'b'.repeat(100_000) } })).status, 200);
  } finally {
    await server.close();
  }
  const served = await probe<Served>('serve', { node });
  t.deepEqual(envOrErrors(served.changes), []);
  const first = await probe<Served>('uws-first', { node });
  t.is(first.tuning.headLimit.state, 'missed');
  t.is(first.lines.filter((line) => line.includes('uWS answers 431 to a request line and headers over 4 KiB')).length, 1, first.lines.join('\n'));
});
