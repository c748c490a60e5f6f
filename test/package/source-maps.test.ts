import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { httpRequest } from '../helpers/http-client';
import { spawnListening } from '../helpers/spawn-server';
import { testKeyPrefix } from '../helpers/test-redis';
import { deleteKeys } from '../helpers/test-server';

const ROOT = path.resolve(__dirname, '..', '..');
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const run = promisify(execFile);

let stage = '';

/** The build (`npm run build`'s configuration) in a directory of its own, not the repository's dist/. */
test.before(async () => {
  stage = await mkdtemp(path.join(os.tmpdir(), 'loupe-build-'));
  await run(TSC, ['-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(stage, 'dist')], { cwd: ROOT });
  await symlink(path.join(ROOT, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
});

test.after.always(async () => {
  if (stage !== '') await rm(stage, { recursive: true, force: true });
});

/** The `node` arguments of `npm start`. */
async function startArgs(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [command, ...args] = manifest.scripts.start.split(' ');
  if (command !== 'node') throw new Error(`npm start runs ${String(command)}, not node`);
  return args;
}

/** GET /boom on the compiled demo started with `args`: the frames the error page, its JSON and the log show. */
async function boomFrames(args: readonly string[]): Promise<{ json: { file: string; line: number }[]; html: string; log: string }> {
  const prefix = testKeyPrefix();
  const env = { ...process.env, HOST: '127.0.0.1', PORT: '0', APP_ENV: 'test', LOG_FORMAT: 'json', REDIS_PREFIX: prefix };
  const server = await spawnListening(args, { cwd: stage, env, listening: /Loupe listening on http:\/\/127\.0\.0\.1:(\d+)/ });
  try {
    const json = await httpRequest(server.port, { path: '/boom', headers: { Accept: 'application/json' } });
    const html = await httpRequest(server.port, { path: '/boom' });
    return { json: (JSON.parse(json.body) as { trace: { file: string; line: number }[] }).trace, html: html.body, log: server.output() };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await deleteKeys(REDIS_URL, prefix);
  }
}

/** The throw in demo/controllers/boom-controller.ts. */
const BOOM_LINE = 7;

for (const [name, flags] of [
  ['npm start (node --enable-source-maps)', null],
  ['plain node: Loupe turns source maps on itself', []],
] as const) {
  test(`the compiled demo's stack traces name the .ts sources and lines: ${name}`, async (t) => {
    t.timeout(120_000);
    const args = flags === null ? await startArgs() : [...flags, 'dist/demo/main.js'];
    if (flags === null) t.true(args.includes('--enable-source-maps'));
    const { json, html, log } = await boomFrames(args);
    const [origin] = json;
    t.true(origin?.file.endsWith(path.join('demo', 'controllers', 'boom-controller.ts')), origin?.file);
    t.is(origin?.line, BOOM_LINE);
    // Loupe's own frames too (dependencies such as xstate keep their .js).
    t.true(json.some((frame) => frame.file.endsWith(path.join('src', 'kernel', 'kernel-machine.ts'))));
    t.false(json.some((frame) => frame.file.startsWith(path.join(stage, 'dist'))), JSON.stringify(json, null, 1));
    t.regex(html, new RegExp(`boom-controller\\.ts:${BOOM_LINE}:`));
    t.false(html.includes(path.join(stage, 'dist')));
    t.regex(log, new RegExp(`boom-controller\\.ts:${BOOM_LINE}:`));
  });
}
