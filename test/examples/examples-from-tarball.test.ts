import test, { type ExecutionContext } from 'ava';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertToolbarPage } from '../helpers/adapter-test-bed';
import { httpRequest, type HttpResult } from '../helpers/http-client';
import { spawnListening } from '../helpers/spawn-server';
import { testKeyPrefix } from '../helpers/test-redis';
import { npmInstall, packedFreshClone, ROOT, run } from '../package/packed-tarball';

/*
 * Each application of examples/ as its reader runs it: copied out of the repository, its
 * `loupe-kernel` pointed at the packed tarball, `npm install`ed, compiled by its own `tsc` (what
 * `npm start` does first, type-checking included), started, and asked each of its routes; each
 * response's profile, read from the application's own /_profiler/<token> as JSON, holds what the
 * route did. Every example answers the same routes (examples/README.md): another one is one
 * more entry of EXAMPLES.
 */

interface Example {
  /** Its directory under examples/. */
  readonly name: string;
  /** The route the profile of `GET /users/7` names, or `null` where the adapter sees none (a node:http server). */
  readonly route: string | null;
}

const EXAMPLES: readonly Example[] = [
  { name: 'fastify', route: 'GET /users/:id' },
  { name: 'express', route: 'GET /users/:id' },
  { name: 'koa', route: null },
  { name: 'hono', route: 'GET /users/:id' },
];

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
/** What every example prints once it listens, the port in the first group. */
const LISTENING = /listening on http:\/\/127\.0\.0\.1:(\d+)/;
const BOOM = 'Boom: this route always fails.';

let work = '';
let packing: Promise<string> | null = null;

/** The tarball, packed once for the file's tests (and shared with the other package tests). */
function tarball(): Promise<string> {
  packing ??= (async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'loupe-examples-'));
    return (await packedFreshClone()).tarball;
  })();
  return packing;
}

test.after.always(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts: Record<string, string>;
}

/**
 * The example copied into the work directory (without what a reader's own `npm install` or
 * build left in it), depending on `packed`; answers its directory and its manifest as written.
 */
async function copyExample(name: string, packed: string): Promise<{ dir: string; manifest: Manifest }> {
  const source = path.join(ROOT, 'examples', name);
  const dir = path.join(work, name);
  await cp(source, dir, { recursive: true, filter: (file) => !['node_modules', 'dist'].includes(path.basename(file)) });
  const manifest = JSON.parse(await readFile(path.join(source, 'package.json'), 'utf8')) as Manifest;
  const installed = { ...manifest, dependencies: { ...manifest.dependencies, 'loupe-kernel': `file:${packed}` } };
  await writeFile(path.join(dir, 'package.json'), JSON.stringify(installed, null, 2));
  return { dir, manifest };
}

/** What is read here of a profile's JSON. */
interface ProfileJson {
  readonly statusCode: number;
  readonly collectors: Readonly<Record<string, unknown>>;
}

/** The profile of `response`, read from the application's `/_profiler/<token>` as JSON once it is stored. */
async function profileOf(port: number, response: HttpResult): Promise<ProfileJson> {
  const token = response.headers['x-debug-token'];
  if (typeof token !== 'string') throw new Error(`No X-Debug-Token: ${JSON.stringify(response.headers)}`);
  for (let attempt = 0; attempt < 100; attempt++) {
    const page = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
    if (page.status === 200) return JSON.parse(page.body) as ProfileJson;
    if (page.status !== 404) throw new Error(`/_profiler/${token}: ${page.status} ${page.body}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The profile ${token} was not stored.`);
}

/** Checks that the example pins the versions the repository tests with, and depends on the tarball `npm pack` writes in the repository. */
async function assertPinned(t: ExecutionContext, manifest: Manifest): Promise<void> {
  const root = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as Manifest & { version: string };
  const pinned = { ...root.dependencies, ...root.devDependencies };
  t.is(manifest.dependencies['loupe-kernel'], `file:../../loupe-kernel-${root.version}.tgz`);
  for (const [name, version] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
    if (name === 'loupe-kernel') continue;
    t.regex(version, /^\d+\.\d+\.\d+$/, `${name} is pinned`);
    if (pinned[name] !== undefined) t.is(version, pinned[name], `${name} as the repository tests it`);
  }
  t.is(manifest.scripts['start'], 'tsc && node --enable-source-maps dist/app.js');
}

/** Checks each route of a running example and its profile. */
async function assertRoutes(t: ExecutionContext, example: Example, port: number, prefix: string): Promise<void> {
  const page = await httpRequest(port, { path: '/' });
  assertToolbarPage(t, port, page);

  const user = await httpRequest(port, { path: '/users/7' });
  t.deepEqual(JSON.parse(user.body), { id: 7, name: 'User 7' });
  const userProfile = await profileOf(port, user);
  const { queries } = userProfile.collectors['db'] as { queries: { sql: string; params: unknown[]; origin: { file: string } | null }[] };
  t.deepEqual(
    queries.map((query) => [query.sql, query.params]),
    [["SELECT $1::int AS id, 'User ' || $1::int AS name", ['7']]],
  );
  t.true(queries[0]?.origin?.file.endsWith(`${example.name}${path.sep}app.ts`), JSON.stringify(queries[0]?.origin));
  t.is((userProfile.collectors['router'] as { route: string | null }).route ?? null, example.route);

  const relayed = await httpRequest(port, { path: '/relay/7' });
  t.deepEqual(JSON.parse(relayed.body), { status: 200, user: { id: 7, name: 'User 7' } });
  const { calls } = (await profileOf(port, relayed)).collectors['http_client'] as { calls: { client: string; method: string; url: string; status: number }[] };
  t.deepEqual(
    calls.map(({ client, method, url, status }) => ({ client, method, url, status })),
    [{ client: 'fetch', method: 'GET', url: `http://127.0.0.1:${port}/users/7`, status: 200 }],
  );

  const visits = await httpRequest(port, { path: '/visits' });
  t.deepEqual(JSON.parse(visits.body), { visits: 1 });
  const { commands } = (await profileOf(port, visits)).collectors['redis'] as { commands: { client: string; command: string; args: string[] }[] };
  t.deepEqual(
    commands.map(({ client, command, args }) => ({ client, command, args })),
    [{ client: 'ioredis', command: 'INCR', args: [`${prefix}example:visits`] }],
  );

  const boom = await httpRequest(port, { path: '/boom', headers: { Accept: 'application/json' } });
  t.is(boom.status, 500);
  const boomProfile = await profileOf(port, boom);
  t.is(boomProfile.statusCode, 500);
  const { errors } = boomProfile.collectors['exception'] as { errors: { message: string; trace: { file: string }[] }[] };
  t.deepEqual(
    errors.map((error) => error.message),
    [BOOM],
  );
  // Source-mapped: the frame is the line of app.ts, not of the compiled dist/app.js.
  t.is(errors[0]?.trace[0]?.file, path.join(work, example.name, 'app.ts'));
}

/** Installs and compilations running at once: all four at a time starved the suite's other files (browser pages timed out). */
const AT_ONCE = 2;
let running = 0;
const waiting: (() => void)[] = [];

/** Runs `work` once fewer than AT_ONCE others run. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

for (const example of EXAMPLES) {
  test(`examples/${example.name} installs from the packed tarball, type-checks, and profiles its page, SQL, fetch, Redis and error routes`, async (t) => {
    t.timeout(600_000);
    const packed = await tarball();
    const { dir, manifest } = await copyExample(example.name, packed);
    await assertPinned(t, manifest);
    await inTurn(async () => {
      const began = Date.now();
      await npmInstall(dir, [], null);
      const installed = Date.now();
      // tsc tells its errors on stdout, which a failed execFile leaves out of its message.
      await run('npm', ['run', 'build'], { cwd: dir }).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`npm run build (tsc) failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      });
      t.log(`npm install ${((installed - began) / 1000).toFixed(1)} s, tsc ${((Date.now() - installed) / 1000).toFixed(1)} s`);
    });
    const prefix = testKeyPrefix();
    const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'development', REDIS_URL, REDIS_PREFIX: prefix, DATABASE_URL };
    // What `npm start` runs once tsc has compiled.
    const server = await spawnListening(['--enable-source-maps', path.join('dist', 'app.js')], { cwd: dir, env, listening: LISTENING });
    try {
      await assertRoutes(t, example, server.port, prefix);
    } finally {
      // SIGTERM: the example closes its server, profiler, pool and Redis client, and exits 0; its keys and the profiles go.
      t.is(await server.close(), 0, server.output());
    }
  });
}
