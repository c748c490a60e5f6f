import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test from 'ava';
import { DATABASE_COLLECTOR, type DatabaseCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';
import { parseProfile } from '../../../src/profiler/profile-schema';
import { httpRequest } from '../../helpers/http-client';
import { TYPESCRIPT } from '../../helpers/typescript-loader';

/*
 * pg captured however the application loads it: an ES module application started from another
 * directory than its own (no require.main, another working directory), two copies of pg in one
 * application (its own and an ORM's nested one), and pg loaded before or after the profiler
 * started. Each application is a real process in a directory of its own, profiled by
 * `loupe-kernel/node` into memory and read back through its own `/_profiler/{token}`.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PG = path.dirname(require.resolve('pg/package.json'));
const DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Serves `/query?copy=NAME` (one query through the pg `copies(NAME)` answers) and `/facts`, profiled by loupe-kernel/node. */
const SERVE = `
import http from 'node:http';
import { profileServer } from 'loupe-kernel/node';

export async function serve(copies, facts) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://app');
    const answer = (value) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
    if (url.pathname === '/facts') return answer(facts());
    const copy = url.searchParams.get('copy');
    copies(copy).then(async (pg) => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      try {
        answer((await client.query('SELECT $1::text AS copy', [copy])).rows[0]);
      } finally {
        await client.end();
      }
    }).catch((error) => res.writeHead(500).end(String(error)));
  });
  if ((await profileServer(server, { log: () => undefined })) === null) throw new Error('The profiler is off.');
  server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
}

/** The files of pg's Client that the process has loaded. */
export const pgClients = (require) => Object.keys(require.cache).filter((file) => file.endsWith('/pg/lib/client.js'));
`;

const APPS: Readonly<Record<string, string>> = {
  // pg imported (before the profiler starts: imports run first) by an ES module.
  'esm-app.mjs': `
import { createRequire } from 'node:module';
import pg from 'pg';
import { serve, pgClients } from './serve.mjs';
const require = createRequire(import.meta.url);
await serve(async () => pg, () => ({ cwd: process.cwd(), esModule: typeof module === 'undefined', pgClients: pgClients(require) }));
`,
  // The application's pg and the copy its ORM pins, both imported before the profiler starts.
  'two-copies.mjs': `
import { createRequire } from 'node:module';
import pg from 'pg';
import orm from 'some-orm';
import { serve, pgClients } from './serve.mjs';
const require = createRequire(import.meta.url);
await serve(async (copy) => (copy === 'orm' ? orm.pg : pg), () => ({ distinct: pg.Client !== orm.pg.Client, pgClients: pgClients(require) }));
`,
  // The ORM's copy required (by the ORM's CommonJS) before the profiler starts, the
  // application's own imported on the first request, after it started.
  'late-pg.mjs': `
import { createRequire } from 'node:module';
import orm from 'some-orm';
import { serve, pgClients } from './serve.mjs';
const require = createRequire(import.meta.url);
const atStart = pgClients(require);
await serve(async (copy) => (copy === 'orm' ? orm.pg : (await import('pg')).default), () => ({ atStart, now: pgClients(require) }));
`,
};

/** Where `name` is installed for the package in `from`, found as Node looks (a package's exports may not name its package.json). */
function packageDirectory(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed for ${from}.`);
  }
}

/**
 * Fills `dir`, an application directory under the system's temp directory: `pg` a link to Loupe's own,
 * `loupe-kernel/node` Loupe's sources, and `some-orm`, a CommonJS package with its own copy of
 * pg (copied, not linked: Node names a module by its real path, so a link would be the same copy),
 * whose dependencies resolve from the directory's node_modules as npm would hoist them.
 */
async function fillApplicationDirectory(dir: string): Promise<void> {
  const modules = path.join(dir, 'node_modules');
  await mkdir(path.join(modules, 'loupe-kernel'), { recursive: true });
  await symlink(PG, path.join(modules, 'pg'), 'dir');
  const { dependencies } = JSON.parse(await readFile(path.join(PG, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const name of Object.keys(dependencies)) await symlink(packageDirectory(name, PG), path.join(modules, name), 'dir');
  await writeFile(path.join(modules, 'loupe-kernel', 'package.json'), JSON.stringify({ name: 'loupe-kernel', exports: { './node': './node.cjs' } }));
  // Named on `exports` so that Node's ES module loader finds the named export in this CommonJS file.
  await writeFile(path.join(modules, 'loupe-kernel', 'node.cjs'), `exports.profileServer = require(${JSON.stringify(path.join(ROOT, 'src', 'profiler', 'adapters', 'node'))}).profileServer;\n`);
  const orm = path.join(modules, 'some-orm');
  await cp(PG, path.join(orm, 'node_modules', 'pg'), { recursive: true, dereference: true });
  await writeFile(path.join(orm, 'package.json'), JSON.stringify({ name: 'some-orm', main: 'index.js' }));
  await writeFile(path.join(orm, 'index.js'), "exports.pg = require('pg');\n");
  await writeFile(path.join(dir, 'serve.mjs'), SERVE);
  for (const [file, source] of Object.entries(APPS)) await writeFile(path.join(dir, file), source);
}

let directory = '';
const running = new Set<ChildProcessWithoutNullStreams>();

test.before(async () => {
  // Named before it is filled: a failure half way still has it deleted.
  directory = await mkdtemp(path.join(os.tmpdir(), 'loupe-pg-copies-'));
  await fillApplicationDirectory(directory);
});

test.after.always(async () => {
  for (const child of running) child.kill('SIGKILL');
  if (directory !== '') await rm(directory, { recursive: true, force: true });
});

/** Starts `file` of the application directory with `/` as its working directory; resolves with its port once it listens. */
function start(file: string): Promise<number> {
  const env = { PATH: process.env['PATH'] ?? '', NODE_ENV: 'development', DATABASE_URL };
  const child = spawn(process.execPath, [...TYPESCRIPT, path.join(directory, file)], { cwd: '/', env });
  running.add(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const port = /listening on (\d+)/.exec(output)?.[1];
      if (port !== undefined) resolve(Number(port));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${file} exited (${String(code)}) before listening:\n${output}`)));
  });
}

async function facts<T>(port: number): Promise<T> {
  return JSON.parse((await httpRequest(port, { path: '/facts' })).body) as T;
}

/** The queries stored in the profile of `/query?copy=NAME` (driver, SQL, parameters), read back from the application's own profiler. */
async function queriesOf(port: number, copy: string): Promise<{ driver: string; sql: string; params: unknown }[]> {
  const res = await httpRequest(port, { path: `/query?copy=${copy}` });
  if (res.status !== 200) throw new Error(`/query?copy=${copy} answered ${res.status}: ${res.body} (is PostgreSQL up? bash scripts/ensure-postgres.sh)`);
  const token = String(res.headers['x-debug-token']);
  for (let attempt = 0; attempt < 250; attempt++) {
    const stored = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
    if (stored.status === 200) {
      const parsed = parseProfile(stored.body);
      if (!parsed.ok) throw new Error(parsed.error);
      const { queries } = parsed.profile.collectors[DATABASE_COLLECTOR] as unknown as DatabaseCollectorData;
      return queries.map(({ driver, sql, params }) => ({ driver, sql, params }));
    }
    await sleep(20);
  }
  throw new Error(`The profile ${token} was not stored.`);
}

/** The one query `/query?copy=NAME` sends, as its profile holds it. */
const query = (copy: string) => ({ driver: 'pg', sql: 'SELECT $1::text AS copy', params: [copy] });

test('an ES module application started from / has the query its pg sends in its profile', async (t) => {
  const port = await start('esm-app.mjs');
  t.like(await facts<{ cwd: string; esModule: boolean }>(port), { cwd: '/', esModule: true });
  t.deepEqual(await queriesOf(port, 'app'), [query('app')]);
});

test('two copies of pg in one application: a query through each is captured', async (t) => {
  const port = await start('two-copies.mjs');
  const loaded = await facts<{ distinct: boolean; pgClients: string[] }>(port);
  t.true(loaded.distinct, 'the ORM has a Client class of its own');
  t.is(new Set(loaded.pgClients).size, 2, loaded.pgClients.join(', '));
  t.deepEqual(await queriesOf(port, 'app'), [query('app')]);
  t.deepEqual(await queriesOf(port, 'orm'), [query('orm')]);
});

test('pg loaded after the profiler started is captured, and so is the copy loaded before it', async (t) => {
  const port = await start('late-pg.mjs');
  const before = await facts<{ atStart: string[] }>(port);
  t.is(before.atStart.length, 1, 'only the ORM\'s copy was loaded when the profiler started');
  t.true(before.atStart[0]?.includes('/some-orm/node_modules/pg/'));
  t.deepEqual(await queriesOf(port, 'app'), [query('app')]);
  t.deepEqual(await queriesOf(port, 'orm'), [query('orm')]);
  t.is((await facts<{ now: string[] }>(port)).now.length, 2, 'the application\'s pg was loaded by the request');
});
