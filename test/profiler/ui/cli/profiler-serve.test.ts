import http from 'node:http';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import test from 'ava';
import { WebSocket } from 'ws';
import { profileServer } from '../../../../src/profiler/adapters/node';
import { adapterTestBed, HTML_PAGE, storedProfile } from '../../../helpers/adapter-test-bed';
import { httpRequest } from '../../../helpers/http-client';
import { TYPESCRIPT } from '../../../helpers/typescript-loader';
import { isOpen, openWebSocket } from '../../../helpers/websocket-client';
import { runLoupe, runMain } from '../../../cli/run-loupe';

/*
 * `loupe profiler:serve` as its own process, over real HTTP: the pages of the profiles a node:http
 * application stores (one that does not mount the pages itself) under a key prefix of its own.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const LISTENING = /^Loupe profiler pages on (http:\/\/127\.0\.0\.1:(\d+)\/_profiler) \(Redis (\S+), prefix "([^"]*)"\)$/m;

const bed = adapterTestBed(test);

interface Served {
  readonly child: ChildProcessWithoutNullStreams;
  readonly port: number;
  /** The listening line. */
  readonly line: string;
  stdout(): string;
  stderr(): string;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

/** `loupe profiler:serve --port 0 …` as its own process, resolved once it printed its listening line. */
function startServe(env: Readonly<Record<string, string>>, args: readonly string[] = []): Promise<Served> {
  const child = spawn(process.execPath, [...TYPESCRIPT, BIN, 'profiler:serve', '--port', '0', ...args], { cwd: ROOT, env: { ...process.env, LOUPE_CLI_FROM_SOURCE: '1', REDIS_URL, ...env } });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = LISTENING.exec(stdout);
      if (match === null) return;
      const served: Served = {
        child,
        port: Number(match[2]),
        line: match[0],
        stdout: () => stdout,
        stderr: () => stderr,
        stop: (signal) => {
          child.kill(signal);
          return exited;
        },
      };
      resolve(served);
    });
    void exited.then((code) => reject(new Error(`profiler:serve exited (${String(code)}) before listening:\n${stdout}\n${stderr}`)));
  });
}

/** An application on node:http that stores its profiles under `prefix` and does not serve the pages. */
async function startApp(prefix: string): Promise<{ port: number; profiler: NonNullable<Awaited<ReturnType<typeof profileServer>>>['profiler'] }> {
  const server = http.createServer((req, res) => {
    if (req.url === '/page') res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(HTML_PAGE);
    else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('nothing here');
  });
  const profiled = await profileServer(server, { env: { ...process.env, REDIS_URL, REDIS_PREFIX: prefix, NODE_ENV: 'development' }, pages: false, log: () => undefined });
  if (profiled === null) throw new Error('The profiler is off.');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  bed.onClose(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await profiled.close();
  });
  return { port: (server.address() as AddressInfo).port, profiler: profiled.profiler };
}

const json = { Accept: 'application/json' };

test.serial('profiler:serve serves the search, profile, toolbar and JSON pages of the profiles an application stores, and stops on SIGTERM with exit code 0', async (t) => {
  const prefix = bed.keyPrefix();
  const app = await startApp(prefix);
  const page = await httpRequest(app.port, { path: '/page' });
  const missing = await httpRequest(app.port, { path: '/missing?id=7' });
  const pageToken = String(page.headers['x-debug-token']);
  const missingToken = String(missing.headers['x-debug-token']);
  // The application does not answer the pages: such a request is the application's, and profiled as any other.
  const notMounted = await httpRequest(app.port, { path: `/_profiler/${pageToken}` });
  t.is(notMounted.status, 404);
  const notMountedToken = String(notMounted.headers['x-debug-token']);
  for (const token of [pageToken, missingToken, notMountedToken]) await storedProfile(app.profiler, token);

  const served = await startServe({ REDIS_PREFIX: prefix });
  try {
    t.deepEqual(LISTENING.exec(served.line)?.slice(3), [REDIS_URL, prefix]);
    const home = await httpRequest(served.port, { path: '/' });
    t.is(home.status, 302);
    t.is(home.headers.location, '/_profiler/');

    const search = await httpRequest(served.port, { path: '/_profiler/empty/search/results?limit=10' });
    t.is(search.status, 200);
    t.true(search.body.includes(`/_profiler/${pageToken}`), 'the search lists the page request');
    t.true(search.body.includes(`/_profiler/${missingToken}`), 'the search lists the 404');
    t.true(search.body.includes('data-counter="reader"'), 'the sidebar says this process stores nothing');
    const found = await httpRequest(served.port, { path: '/_profiler/', headers: json });
    const results = (JSON.parse(found.body) as { results: { token: string; statusCode: number }[] }).results;
    t.deepEqual(results.map((row) => `${row.token} ${row.statusCode}`).sort(), [`${pageToken} 200`, `${missingToken} 404`, `${notMountedToken} 404`].sort());

    const profilePage = await httpRequest(served.port, { path: `/_profiler/${missingToken}` });
    t.is(profilePage.status, 200);
    t.regex(String(profilePage.headers['content-type']), /^text\/html/);
    t.true(profilePage.body.includes('/missing?id=7'), 'the page shows the request');
    const profileJson = await httpRequest(served.port, { path: `/_profiler/${missingToken}`, headers: json });
    t.is(profileJson.status, 200);
    t.like(JSON.parse(profileJson.body), { token: missingToken, method: 'GET', statusCode: 404 });

    const toolbar = await httpRequest(served.port, { path: `/_wdt/${pageToken}` });
    t.is(toolbar.status, 200);
    t.true(toolbar.body.includes(`/_profiler/${pageToken}`), toolbar.body);

    const status = JSON.parse((await httpRequest(served.port, { path: '/_profiler/status', headers: json })).body) as { stored: unknown; indexed: unknown; settings: { prefix: string } };
    t.like(status, { stored: null, indexed: 3, settings: { prefix } });

    t.is((await httpRequest(served.port, { path: '/anything-else' })).status, 404);
    const rebound = await httpRequest(served.port, { path: `/_profiler/${pageToken}`, headers: { Host: 'attacker.example' } });
    t.is(rebound.status, 403);
    t.false(rebound.body.includes('/missing?id=7'));
  } finally {
    t.is(await served.stop('SIGTERM'), 0);
    // Nothing went wrong to report (a runtime's own warnings aside).
    t.false(/error|unavailable|lost/i.test(served.stderr()), served.stderr());
  }
});

test.serial('the live feed of profiler:serve announces each request an application stores, as it is stored', async (t) => {
  const prefix = bed.keyPrefix();
  const app = await startApp(prefix);
  const served = await startServe({ REDIS_PREFIX: prefix });
  try {
    const socket = await openWebSocket(served.port, '/_profiler/live');
    if (!isOpen(socket)) throw new Error(`The upgrade was refused: ${socket.status} ${socket.body}`);
    const res = await httpRequest(app.port, { path: '/page' });
    const token = String(res.headers['x-debug-token']);
    const message = await socket.waitFor((text) => text.includes(`"${token}"`));
    t.like((JSON.parse(message) as { token: string; path: string; status: number }[]).find((summary) => summary.token === token), { path: '/page', status: 200 });
    socket.close();
    // A page of another origin may not read the feed.
    const foreign = await openWebSocket(served.port, '/_profiler/live', { Origin: 'http://attacker.example' });
    t.false(isOpen(foreign));
    if (!isOpen(foreign)) t.is(foreign.status, 403);
  } finally {
    t.is(await served.stop('SIGINT'), 0);
  }
});

test.serial('a client of the live feed of profiler:serve may send messages of 1 KiB, and is closed with 1009 past it', async (t) => {
  const served = await startServe({ REDIS_PREFIX: bed.keyPrefix() });
  const socket = new WebSocket(`ws://127.0.0.1:${served.port}/_profiler/live`);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('x'.repeat(1024));
    // The feed answers no message: a pong after it says the connection is still open.
    const pong = new Promise<string>((resolve) => socket.once('pong', (data) => resolve(data.toString())));
    socket.ping('still open');
    t.is(await pong, 'still open');
    socket.send('x'.repeat(1025));
    t.is(await closed, 1009);
  } finally {
    socket.terminate();
    t.is(await served.stop('SIGTERM'), 0);
  }
});

test('profiler:serve never prints the password of the Redis it reads', async (t) => {
  const prefix = bed.keyPrefix();
  // Redis's default user without a password takes any password (nopass).
  const url = REDIS_URL.replace('redis://', 'redis://default:s3cret-pass@');
  const served = await startServe({ REDIS_PREFIX: prefix, REDIS_URL: url });
  try {
    t.false(served.stdout().includes('s3cret-pass'), served.stdout());
    t.regex(served.line, /\(Redis redis:\/\/default:\*+@/);
  } finally {
    t.is(await served.stop('SIGTERM'), 0);
  }
});

test('profiler:serve with no Redis answering says how to start one and exits with code 1', async (t) => {
  const run = await runLoupe(['profiler:serve', '--port', '0', '--redis-url', 'redis://127.0.0.1:1'], { REDIS_CONNECT_TIMEOUT_MS: '1000' });
  t.is(run.code, 1);
  t.regex(run.stderr, /Cannot reach .*127\.0\.0\.1:1.*docker compose up -d redis/s);
  t.is(run.stdout, '');
});

test('profiler:serve refuses a port that is no port, with its usage', async (t) => {
  const run = await runMain(['profiler:serve', '--port', '80000']);
  t.is(run.code, 2);
  t.regex(run.stderr, /--port expects a port from 0 to 65535, got "80000"/);
  t.regex(run.stderr, /Usage: loupe profiler:serve \[--port N\] \[--host HOST\]/);
});

test('loupe help lists profiler:serve', async (t) => {
  const run = await runMain(['help']);
  t.regex(run.stdout, /^ {2}profiler:serve +serve the profiler's pages on their own port/m);
});
