import test from 'ava';
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { httpRequest } from '../helpers/http-client';
import { spawnListening } from '../helpers/spawn-server';
import { testKeyPrefix } from '../helpers/test-redis';
import { deleteKeys } from '../helpers/test-server';

const ROOT = path.resolve(__dirname, '..', '..');
const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');
const run = promisify(execFile);

/** Builds the package into `stage` (not the repository's dist/) and packs it; resolves with the tarball. */
async function pack(stage: string): Promise<string> {
  for (const entry of ['package.json', 'README.md', 'bin', 'scripts/patch-xstate.js']) await cp(path.join(ROOT, entry), path.join(stage, entry), { recursive: true });
  await run(TSC, ['-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', path.join(stage, 'dist')], { cwd: ROOT });
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', stage], { cwd: stage });
  return path.join(stage, stdout.trim().split('\n').pop() ?? '');
}

/** Installs the tarball the way an application would, from npm's cache when it has everything. */
async function install(app: string, tarball: string): Promise<void> {
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'hello-app', version: '1.0.0', private: true }));
  const args = ['install', tarball, '--no-audit', '--no-fund', '--no-save'];
  await run('npm', [...args, '--prefer-offline'], { cwd: app, maxBuffer: 16 * 1024 * 1024 });
}

test('npm pack gives a tarball that installs, type-checks and serves the README example application', async (t) => {
  t.timeout(240_000);
  const work = await mkdtemp(path.join(os.tmpdir(), 'loupe-pack-'));
  const prefix = testKeyPrefix();
  try {
    const stage = path.join(work, 'stage');
    const app = path.join(work, 'app');
    await mkdir(stage);
    await mkdir(app);
    const tarball = await pack(stage);
    await install(app, tarball);
    t.deepEqual(await readdir(path.join(app, 'node_modules', 'loupe', 'dist', 'src')).then((names) => names.includes('index.d.ts')), true);
    await cp(path.join(ROOT, 'examples', 'hello', 'app.ts'), path.join(app, 'app.ts'));
    await cp(path.join(ROOT, 'examples', 'client-panel', 'app.ts'), path.join(app, 'client-panel.ts'));
    // Type-checked against the installed declarations, then compiled: the examples are what the README shows.
    await run(TSC, ['app.ts', 'client-panel.ts', '--strict', '--exactOptionalPropertyTypes', '--noUncheckedIndexedAccess', '--module', 'commonjs', '--target', 'es2022', '--moduleResolution', 'node', '--esModuleInterop', '--skipLibCheck', '--types', 'node', '--typeRoots', path.join(ROOT, 'node_modules', '@types')], { cwd: app });
    const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', APP_ENV: 'test', REDIS_PREFIX: prefix };
    const { child, port, exited, output } = await spawnListening(['app.js'], { cwd: app, env, listening: /Listening on http:\/\/127\.0\.0\.1:(\d+)/ });
    const hello = await httpRequest(port, { path: '/hello/ada' });
    t.is(hello.status, 200);
    t.is(hello.body, 'Hello ada!');
    t.is(hello.headers['x-powered-by'], 'Loupe');
    t.regex(String(hello.headers['x-debug-token']), /^[0-9a-f]{6}$/);
    t.deepEqual(JSON.parse((await httpRequest(port, { path: '/books/1' })).body), { id: 1, title: 'The Name of the Rose' });
    const missing = await httpRequest(port, { path: '/books/2', headers: { accept: 'application/json' } });
    t.is(missing.status, 404);
    t.is(JSON.parse(missing.body).detail, 'No book 2.');
    child.kill('SIGTERM');
    t.is(await exited, 0, output());
  } finally {
    await deleteKeys(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', prefix);
    await rm(work, { recursive: true, force: true });
  }
});
