import http from 'node:http';
import { type ExecutionContext, type TestFn } from 'ava';
import pg from 'pg';
import { type StartedProfiler } from '../../src/profiler/core/start-profiler';
import { type Profile } from '../../src/profiler/profile';
import { parseProfile } from '../../src/profiler/profile-schema';
import { httpRequest, type HttpResult } from './http-client';
import { testKeyPrefix } from './test-redis';
import { deleteKeys } from './test-server';
import { isOpen, openWebSocket } from './websocket-client';

/** The tests' Redis, named explicitly: without REDIS_URL the adapters keep their profiles in memory. */
export const TEST_REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** An HTML page as an application sends it, for the toolbar to go in. */
export const HTML_PAGE = '<!DOCTYPE html><html><head><title>t</title></head><body><h1>Hello</h1></body></html>';

/** What the adapters' HTTP tests share: a PostgreSQL pool, and servers each under a key prefix of its own. */
export interface AdapterTestBed {
  readonly pool: pg.Pool;
  /** A key prefix of its own, whose keys are deleted after the file's tests. */
  keyPrefix(): string;
  /** An environment that profiles into the tests' Redis under a key prefix of its own, in development. */
  redisEnv(): Record<string, string | undefined>;
  /** Runs `close` after the file's tests, the last given first. */
  onClose(close: () => Promise<void>): void;
}

/**
 * The environment of an adapter that stores in the test Redis under `prefix`: REDIS_URL named
 * (without it profiles go to memory), and the timeouts Loupe's own tests use (testConfig): on a
 * machine running four test files at once, a process compiling its modules can miss the default
 * 3 s connect and 1 s command timeouts, and then serves its first requests without a profile.
 */
export function adapterRedisEnv(prefix: string): Record<string, string | undefined> {
  return { ...process.env, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix, NODE_ENV: 'development', REDIS_CONNECT_TIMEOUT_MS: '15000', REDIS_COMMAND_TIMEOUT_MS: '5000' };
}

/** Registers the file's clean-up: servers closed, pool ended, every prefix's keys deleted. */
export function adapterTestBed(test: TestFn): AdapterTestBed {
  const pool = new pg.Pool({ host: '127.0.0.1', database: 'test', user: 'postgres', max: 4 });
  const prefixes: string[] = [];
  const closers: (() => Promise<void>)[] = [];
  test.after.always(async () => {
    for (const close of closers.reverse()) await close();
    await pool.end();
    for (const prefix of prefixes) await deleteKeys(TEST_REDIS_URL, prefix);
  });
  const keyPrefix = (): string => {
    const prefix = testKeyPrefix();
    prefixes.push(prefix);
    return prefix;
  };
  return {
    pool,
    keyPrefix,
    redisEnv: () => adapterRedisEnv(keyPrefix()),
    onClose: (close) => closers.push(close),
  };
}

/** The stored profile of `token`, once written. */
export async function storedProfile(profiler: StartedProfiler, token: unknown): Promise<Profile> {
  if (typeof token !== 'string') throw new Error('No X-Debug-Token.');
  for (let attempt = 0; attempt < 200; attempt++) {
    await profiler.writer.whenIdle();
    const found = await profiler.storage.read(token);
    if (found.kind === 'found') {
      const parsed = parseProfile(found.json);
      if (parsed.ok) return parsed.profile;
      throw new Error(parsed.error);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`The profile ${token} was not stored.`);
}

/** `/_profiler/<token>` as the server answers it once the profile is stored (a 404 before). */
async function profilePage(port: number, token: string): Promise<HttpResult> {
  let panel = await httpRequest(port, { path: `/_profiler/${token}` });
  for (let attempt = 0; attempt < 50 && panel.status === 404; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    panel = await httpRequest(port, { path: `/_profiler/${token}` });
  }
  return panel;
}

/** Checks that an HTML `page` came with its token and link, and the toolbar before `</body>` with a Content-Length that counts it and no ETag. */
export function assertToolbarPage(t: ExecutionContext, port: number, page: HttpResult): void {
  t.is(page.status, 200);
  t.regex(String(page.headers['x-debug-token']), /^[0-9a-f]{6}$/);
  t.is(page.headers['x-debug-token-link'], `http://127.0.0.1:${port}/_profiler/${String(page.headers['x-debug-token'])}`);
  t.true(page.body.includes('id="loupe-wdt-'), 'the toolbar is in the page');
  t.true(page.body.indexOf('loupe-wdt-') < page.body.indexOf('</body>'));
  t.is(Number(page.headers['content-length']), Buffer.byteLength(page.body));
  t.is(page.headers['etag'], undefined, 'the ETag no longer matches the body');
}

/**
 * What every adapter's server must answer of the profiler's pages, for the profile of its
 * `/page`: the profile page (unprofiled), its JSON, HEAD, the toolbar's content, the home's
 * redirect, and a 403 for a Host not allowed (DNS rebinding). Answers the profile page.
 */
export async function assertPagesServed(t: ExecutionContext, port: number): Promise<HttpResult> {
  const page = await httpRequest(port, { path: '/page' });
  const token = String(page.headers['x-debug-token']);
  const panel = await profilePage(port, token);
  t.is(panel.status, 200);
  t.true(panel.body.includes('/page'));
  t.is(panel.headers['x-debug-token'], undefined, 'the pages are not profiled');
  const json = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Accept: 'application/json' } });
  t.is((JSON.parse(json.body) as { token: string }).token, token);
  t.is((await httpRequest(port, { method: 'HEAD', path: `/_profiler/${token}` })).status, 200);
  t.is((await httpRequest(port, { path: `/_wdt/${token}` })).status, 200);
  t.is((await httpRequest(port, { path: '/_profiler/' })).status, 302);
  const refused = await httpRequest(port, { path: `/_profiler/${token}`, headers: { Host: 'rebound.example' } });
  t.is(refused.status, 403);
  return panel;
}

/**
 * Asks `path` and leaves before the answer, once the application's handler has started (`reached`
 * resolves then: on a loaded machine a fixed delay may end before the server saw the request);
 * resolves with the profile the server stored for it.
 */
export async function abandonedProfile(profiler: StartedProfiler, port: number, path: string, reached: Promise<void>): Promise<Profile | undefined> {
  const before = new Set((await profiler.storage.find({ limit: 50 })).map((row) => row.token));
  await new Promise<void>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path });
    req.on('error', () => resolve());
    const leave = (): void => {
      req.destroy();
      resolve();
    };
    void Promise.race([reached, new Promise((wait) => setTimeout(wait, 10_000))]).then(leave);
  });
  for (let attempt = 0; attempt < 100; attempt++) {
    await profiler.writer.whenIdle();
    const [row] = (await profiler.storage.find({ limit: 50 })).filter((found) => !before.has(found.token) && found.url.endsWith(path));
    if (row !== undefined) return storedProfile(profiler, row.token);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

/** Checks that the profile of the n-th response holds exactly one query, whose parameters are `[n]`: each request's own, under concurrency. */
export async function assertOwnQueries(t: ExecutionContext, profiler: StartedProfiler, responses: readonly HttpResult[]): Promise<void> {
  for (const [n, res] of responses.entries()) {
    const profile = await storedProfile(profiler, res.headers['x-debug-token']);
    const { queries } = profile.collectors['db'] as { queries: { params: unknown[] }[] };
    t.deepEqual(
      queries.map((query) => query.params),
      [[n]],
      `request ${n}`,
    );
  }
}

/**
 * The search page's live list on an adapter's own server: a client of `/_profiler/live` gets the
 * summary of a request to `/page` made after it connected, and a page of another origin is refused.
 */
export async function assertLiveFeed(t: ExecutionContext, port: number): Promise<void> {
  const socket = await openWebSocket(port, '/_profiler/live');
  if (!isOpen(socket)) throw new Error(`The upgrade was refused: ${socket.status} ${socket.body}`);
  try {
    const res = await httpRequest(port, { path: '/page' });
    const token = String(res.headers['x-debug-token']);
    const message = await socket.waitFor((text) => text.includes(`"${token}"`));
    t.like((JSON.parse(message) as { token: string; path: string }[]).find((summary) => summary.token === token), { path: '/page', status: 200 });
  } finally {
    socket.close();
  }
  const foreign = await openWebSocket(port, '/_profiler/live', { Origin: 'http://attacker.example' });
  t.false(isOpen(foreign), 'a page of another origin cannot read the feed');
}
