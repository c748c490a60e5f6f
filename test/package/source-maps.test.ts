import test, { type ExecutionContext } from 'ava';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { httpRequest } from '../helpers/http-client';
import { spawnListening } from '../helpers/spawn-server';
import { testKeyPrefix } from '../helpers/test-redis';
import { deleteKeys } from '../helpers/test-server';
import { packedFreshClone } from './packed-tarball';

const ROOT = path.resolve(__dirname, '..', '..');
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

let stage = '';

/**
 * The build of `npm run build` as `npm pack` makes it on a fresh clone, not the repository's dist/
 * (made once per run for the package tests: a minute on a busy machine, inside the test that asks).
 */
async function built(t: ExecutionContext): Promise<void> {
  t.timeout(400_000);
  ({ stage } = await packedFreshClone());
}

/** The `node` arguments of `npm start`. */
async function startArgs(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [command, ...args] = manifest.scripts.start.split(' ');
  if (command !== 'node') throw new Error(`npm start runs ${String(command)}, not node`);
  return args;
}

/** GET /boom on the compiled demo started with `args`: the frames the error page, its JSON and the log show. */
async function boomFrames(args: readonly string[]): Promise<{ json: { file: string; line: number; hidden?: number }[]; html: string; log: string }> {
  const prefix = testKeyPrefix();
  const env = { ...process.env, HOST: '127.0.0.1', PORT: '0', APP_ENV: 'test', LOG_FORMAT: 'json', REDIS_PREFIX: prefix };
  const server = await spawnListening(args, { cwd: stage, env, listening: /Loupe listening on http:\/\/127\.0\.0\.1:(\d+)/ });
  try {
    const json = await httpRequest(server.port, { path: '/boom', headers: { Accept: 'application/json' } });
    const html = await httpRequest(server.port, { path: '/boom' });
    return { json: (JSON.parse(json.body) as { trace: { file: string; line: number; hidden?: number }[] }).trace, html: html.body, log: server.output() };
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
  ["plain node: the demo's entry point turns source maps on itself (importing Loupe does not)", []],
] as const) {
  test(`the compiled demo's stack traces name the .ts sources and lines: ${name}`, async (t) => {
    await built(t);
    const args = flags === null ? await startArgs() : [...flags, 'dist/demo/main.js'];
    if (flags === null) t.true(args.includes('--enable-source-maps'));
    const { json, html, log } = await boomFrames(args);
    const [origin] = json;
    t.true(origin?.file.endsWith(path.join('demo', 'controllers', 'boom-controller.ts')), origin?.file);
    t.is(origin?.line, BOOM_LINE);
    // Loupe's own frames too (dependencies such as xstate keep their .js): the log has the whole
    // trace; the page and its JSON fold the request machine's frames (kernel-machine's among them).
    t.true(log.includes(`${path.join(stage, 'src', 'kernel', 'kernel-machine.ts')}:`), log);
    t.true(json.some((frame) => (frame.hidden ?? 0) > 0), JSON.stringify(json));
    t.false(json.some((frame) => frame.file.startsWith(path.join(stage, 'dist'))), JSON.stringify(json, null, 1));
    t.regex(html, new RegExp(`boom-controller\\.ts:${BOOM_LINE}:`));
    t.false(html.includes(path.join(stage, 'dist')));
    t.regex(log, new RegExp(`boom-controller\\.ts:${BOOM_LINE}:`));
  });
}
