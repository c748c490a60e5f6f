import test, { type ExecutionContext } from 'ava';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { httpRequest } from '../helpers/http-client';
import { spawnListening } from '../helpers/spawn-server';
import { useTestRedis } from '../helpers/test-redis';
import { deleteKeys } from '../helpers/test-server';
import { npmInstall, packedFreshClone, ROOT, run } from './packed-tarball';

const TSC = path.join(ROOT, 'node_modules', '.bin', 'tsc');
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];
// The applications and commands run from the tarball write under their prefixes, some after their test's own clean-up (a token block reserved as a process stops): deleted again after the file's tests.
const redisForTests = useTestRedis(test, 'loupe-test-pack');

let work = '';
let tarball = '';
/** An application directory with the tarball installed. */
let app = '';
let installOutput = '';
let packing: Promise<void> | null = null;

/**
 * Packs and installs once, for every test of the file, inside the first test that asks: a minute
 * or two on a busy machine, longer than ava lets a hook run.
 */
function packed(t: ExecutionContext): Promise<void> {
  t.timeout(400_000);
  packing ??= (async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'loupe-pack-'));
    app = path.join(work, 'app');
    await mkdir(app);
    ({ tarball } = await packedFreshClone());
    installOutput = await npmInstall(app, [tarball]);
  })();
  return packing;
}

test.after.always(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

const installed = (...parts: string[]): string => path.join(app, 'node_modules', 'loupe-kernel', ...parts);

test('npm pack on a fresh clone builds the package: the tarball holds the compiled entry, its declarations and source maps', async (t) => {
  await packed(t);
  const names = await readdir(installed('dist', 'src'));
  for (const name of ['index.js', 'index.d.ts', 'index.js.map']) t.true(names.includes(name), name);
  t.true((await readdir(installed('create', 'template'))).includes('app.ts'));
});

test('the package has no install script to approve, and bundles XState with Loupe\'s patch applied', async (t) => {
  await packed(t);
  const manifest = JSON.parse(await readFile(installed('package.json'), 'utf8')) as { name: string; scripts?: Record<string, string> };
  t.is(manifest.name, 'loupe-kernel');
  t.deepEqual(INSTALL_SCRIPTS.filter((script) => manifest.scripts?.[script] !== undefined), []);
  t.notRegex(installOutput, /install-scripts|allowScripts/, installOutput);
  const { stdout } = await run(process.execPath, ['-p', "require.resolve('xstate', { paths: [require.resolve('loupe-kernel')] })"], { cwd: app });
  t.is(stdout.trim(), installed('node_modules', 'xstate', 'dist', 'xstate.cjs.js'));
  const patched = await readdir(installed('node_modules', 'xstate', 'dist'));
  const raise = patched.filter((name) => /^raise-[0-9a-f]+\.(development\.)?cjs\.js$/.test(name));
  t.is(raise.length, 2);
  for (const name of raise) t.true((await readFile(installed('node_modules', 'xstate', 'dist', name), 'utf8')).includes('Loupe patch:'), name);
});

test('the package imports from ES modules and from CommonJS, with the same named exports, and so does loupe-kernel/testing', async (t) => {
  await packed(t);
  await writeFile(
    path.join(app, 'esm.mjs'),
    "import { createLoupe, html } from 'loupe-kernel';\nimport * as loupe from 'loupe-kernel';\nconsole.log(JSON.stringify({ createLoupe: typeof createLoupe, html: String(html`<b>${'<i>'}</b>`), names: Object.keys(loupe).filter((name) => name !== 'default' && name !== '__esModule').sort() }));\n",
  );
  await writeFile(
    path.join(app, 'cjs.cjs'),
    "const loupe = require('loupe-kernel');\nconsole.log(JSON.stringify({ createLoupe: typeof loupe.createLoupe, html: String(loupe.html`<b>${'<i>'}</b>`), names: Object.keys(loupe).filter((name) => name !== '__esModule').sort() }));\n",
  );
  const esm = JSON.parse((await run(process.execPath, ['esm.mjs'], { cwd: app })).stdout) as { createLoupe: string; html: string; names: string[] };
  const cjs = JSON.parse((await run(process.execPath, ['cjs.cjs'], { cwd: app })).stdout) as typeof esm;
  t.is(esm.createLoupe, 'function');
  t.is(esm.html, '<b>&lt;i&gt;</b>');
  t.true(cjs.names.length > 40);
  t.deepEqual(esm, cjs);
  // The test helper's entry, from both module systems: what a test of node:test, ava or vitest imports.
  await writeFile(path.join(app, 'testing.mjs'), "import { expectProfile, checkBudget } from 'loupe-kernel/testing';\nconsole.log(typeof expectProfile, typeof checkBudget);\n");
  await writeFile(path.join(app, 'testing.cjs'), "const { expectProfile, checkBudget } = require('loupe-kernel/testing');\nconsole.log(typeof expectProfile, typeof checkBudget);\n");
  for (const file of ['testing.mjs', 'testing.cjs']) t.is((await run(process.execPath, [file], { cwd: app })).stdout, 'function function\n', file);
});

test('npm pack gives a tarball that installs, type-checks and serves the README example application', async (t) => {
  await packed(t);
  const prefix = redisForTests.prefix();
  const dir = path.join(app, 'hello');
  await mkdir(dir);
  try {
    await cp(path.join(ROOT, 'examples', 'hello', 'app.ts'), path.join(dir, 'app.ts'));
    await cp(path.join(ROOT, 'examples', 'client-panel', 'app.ts'), path.join(dir, 'client-panel.ts'));
    // Type-checked against the installed declarations, then compiled: the examples are what the README shows.
    await run(TSC, ['app.ts', 'client-panel.ts', '--strict', '--exactOptionalPropertyTypes', '--noUncheckedIndexedAccess', '--module', 'commonjs', '--target', 'es2022', '--moduleResolution', 'node', '--esModuleInterop', '--skipLibCheck', '--types', 'node', '--typeRoots', path.join(ROOT, 'node_modules', '@types')], { cwd: dir });
    const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', APP_ENV: 'test', REDIS_PREFIX: prefix };
    const { child, port, exited, output } = await spawnListening(['app.js'], { cwd: dir, env, listening: /Listening on http:\/\/127\.0\.0\.1:(\d+)/ });
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
    await deleteKeys(REDIS_URL, prefix);
  }
});

/** Every ```json block of the README, parsed. */
async function readmeJsonBlocks(): Promise<unknown[]> {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1] ?? '') as unknown);
}

/** The line of `throw` in the application below. */
const THROW_LINE = 4;
const BOOM_APP = `import { createLoupe, type Controller } from 'loupe-kernel';

const boom: Controller = { name: 'boom', handle: () => {
  throw new Error('Boom.');
} };

const app = createLoupe({ routes: [{ name: 'boom', path: '/boom', methods: ['GET'], controller: boom }] });
app.listen().then(({ url }) => console.log(\`Listening on \${url}\`));
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
`;

test("the README's tsconfig.json compiles an application with tsc, and its stack traces name app.ts under node --enable-source-maps", async (t) => {
  await packed(t);
  const tsconfig = JSON.parse(await readFile(path.join(ROOT, 'create', 'template', 'tsconfig.json'), 'utf8')) as unknown;
  t.true((await readmeJsonBlocks()).some((block) => JSON.stringify(block) === JSON.stringify(tsconfig)), 'the README shows create/template/tsconfig.json as it is');
  t.true((await readFile(path.join(ROOT, 'README.md'), 'utf8')).includes('node --enable-source-maps dist/app.js'));
  // Below the application's directory: its node_modules is found above.
  const dir = path.join(app, 'typescript');
  await mkdir(dir);
  await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  await writeFile(path.join(dir, 'app.ts'), BOOM_APP);
  // Node's types from the repository: the application would install @types/node itself.
  await run(TSC, ['-p', '.', '--typeRoots', path.join(ROOT, 'node_modules', '@types')], { cwd: dir });
  const prefix = redisForTests.prefix();
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', APP_ENV: 'test', REDIS_PREFIX: prefix };
  const server = await spawnListening(['--enable-source-maps', path.join('dist', 'app.js')], { cwd: dir, env, listening: /Listening on http:\/\/127\.0\.0\.1:(\d+)/ });
  try {
    const response = await httpRequest(server.port, { path: '/boom', headers: { accept: 'application/json' } });
    t.is(response.status, 500);
    const [origin] = (JSON.parse(response.body) as { trace: { file: string; line: number }[] }).trace;
    t.is(origin?.file, path.join(dir, 'app.ts'));
    t.is(origin?.line, THROW_LINE);
  } finally {
    await server.close();
  }
});

test('npx --package <tarball> loupe-kernel create --from <tarball> writes an application that depends on the tarball, that npm install && npm start serves with the profiler on', async (t) => {
  await packed(t);
  // The README's Quick start from a clone, while loupe-kernel is not on the registry.
  const created = await run('npx', ['--yes', '--package', tarball, 'loupe-kernel', 'create', 'my-app', '--from', tarball], { cwd: work });
  t.regex(created.stdout, /npm start/);
  const dir = path.join(work, 'my-app');
  t.deepEqual((await readdir(dir)).sort(), ['.gitignore', 'README.md', 'app.ts', 'docker-compose.yml', 'package.json', 'tsconfig.json']);
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
  t.is(manifest.name, 'my-app');
  t.deepEqual(manifest.dependencies, { 'loupe-kernel': `file:${path.relative(dir, tarball)}` });
  // `npm install` of the generated application as it is: nothing from the registry for Loupe.
  await npmInstall(dir, [], null);
  const prefix = redisForTests.prefix();
  // APP_ENV as the application's user has it: unset, so dev, with debug and the profiler.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'APP_ENV'));
  const env = { ...inherited, PORT: '0', HOST: '127.0.0.1', REDIS_PREFIX: prefix, LOG_FORMAT: 'json' };
  const npm = (await run('sh', ['-c', 'command -v npm'])).stdout.trim();
  const server = await spawnListening(['start'], { cwd: dir, env, node: npm, listening: /Loupe listening on http:\/\/127\.0\.0\.1:(\d+)/ });
  try {
    t.regex(server.output(), /profiler: http:\/\/127\.0\.0\.1:\d+\/_profiler\//);
    const page = await httpRequest(server.port, { path: '/' });
    t.is(page.status, 200);
    t.regex(page.body, /Hello from my-app/);
    const token = String(page.headers['x-debug-token']);
    t.regex(token, /^[0-9a-f]{6}$/);
    const latest = await httpRequest(server.port, { path: '/_profiler/latest' });
    t.true(latest.status === 200 || (latest.status === 302 && String(latest.headers.location).endsWith(token)), `${latest.status} ${String(latest.headers.location)}`);
    const json = await httpRequest(server.port, { path: '/hello/ada' });
    t.deepEqual(JSON.parse(json.body), { hello: 'ada' });
  } finally {
    // npm runs the script in a shell that does not pass SIGTERM on: the server (whose pid its log
    // lines carry) is stopped itself, as Ctrl-C stops it in a terminal; npm then exits with its code.
    const pid = /"pid":(\d+)/.exec(server.output())?.[1];
    if (pid !== undefined) process.kill(Number(pid), 'SIGTERM');
    const code = pid === undefined ? null : await server.exited;
    await server.close();
    t.is(code, 0, server.output());
  }
  // `npm start` compiled dist/app.js, which debug:listeners imports without it listening.
  const loupe = path.join(dir, 'node_modules', '.bin', 'loupe');
  const cliEnv = { ...process.env, REDIS_PREFIX: prefix, APP_ENV: 'test' };
  for (const module of ['dist/app.js', 'app.ts']) {
    const listed = await run(loupe, ['debug:listeners', '--app', module, '--phase', 'kernel.request'], { cwd: dir, env: cliEnv, timeout: 60_000 });
    t.regex(listed.stdout, /Registered listeners for "kernel\.request"\n=+\n[\s\S]*RouterListener/, module);
  }
});
