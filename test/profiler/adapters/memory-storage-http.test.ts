import { execFile } from 'node:child_process';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import express from 'express';
import { profileServer, type ProfiledServer } from '../../../src/profiler/adapters/node';
import { loupe } from '../../../src/profiler/adapters/express';
import { currentRequest } from '../../../src/profiler/core';
import { assertPagesServed, HTML_PAGE, storedProfile } from '../../helpers/adapter-test-bed';
import { httpRequest, type HttpResult } from '../../helpers/http-client';
import { TYPESCRIPT } from '../../helpers/typescript-loader';

/*
 * The adapters with no REDIS_URL: profiles kept in the application's memory, bounded by count
 * and bytes, served by the same pages and JSON API, and no Redis connection at all.
 */

/** An environment with no Redis in it: only what the test sets. */
const noRedis = (settings: Record<string, string> = {}): Record<string, string> => ({ NODE_ENV: 'development', ...settings });

const closers: (() => Promise<void>)[] = [];
test.after.always(async () => {
  for (const close of closers.reverse()) await close();
});

/** A plain server: `/page` an HTML page, `/big?kb=N` a request that logs N KiB, anything else a line of text. */
function plainServer(): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://app');
    if (url.pathname === '/page') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(HTML_PAGE);
      return;
    }
    const kb = Number(url.searchParams.get('kb') ?? '0');
    if (kb > 0) currentRequest()?.log('info', 'x'.repeat(kb * 1024));
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`${req.method ?? 'GET'} ${url.pathname}`);
  });
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

async function serve(env: Record<string, string>): Promise<{ port: number; profiled: ProfiledServer }> {
  const server = plainServer();
  const profiled = await profileServer(server, { env, log: () => undefined });
  if (profiled === null) throw new Error('The profiler is off.');
  closers.push(() => profiled.close());
  return { port: await listen(server), profiled };
}

const tokenOf = (res: HttpResult): string => String(res.headers['x-debug-token']);
const json = (port: number, path: string): Promise<HttpResult> => httpRequest(port, { path, headers: { Accept: 'application/json' } });

test('without REDIS_URL, profileServer keeps profiles in memory: the token, the profile page, its JSON and the toolbar\'s content are served from it', async (t) => {
  const { port, profiled } = await serve(noRedis());
  t.like(profiled.profiler.config, { storage: 'memory', redis: null });
  const panel = await assertPagesServed(t, port);
  t.true(panel.body.includes('/page'));
  const status = JSON.parse((await json(port, '/_profiler/status')).body) as { storage: { reachable: boolean }; indexed: number; settings: { storage: string; redisUrl: unknown; maxProfiles: number; maxBytes: number } };
  t.like(status, { storage: { reachable: true }, settings: { storage: 'memory', redisUrl: null, maxProfiles: 1_000, maxBytes: 64 * 1024 * 1024 } });
  const page = await httpRequest(port, { path: '/_profiler/status' });
  t.true(page.body.includes('in memory, this process only'), 'the status page says where profiles are kept');
});

test('search reads the profiles kept in memory: filters, newest first', async (t) => {
  const { port, profiled } = await serve(noRedis());
  const get = await httpRequest(port, { path: '/orders/1' });
  const post = await httpRequest(port, { method: 'POST', path: '/orders' });
  const other = await httpRequest(port, { path: '/users/2' });
  await profiled.profiler.writer.whenIdle();
  const results = async (query: string): Promise<string[]> => (JSON.parse((await json(port, `/_profiler/search?${query}`)).body) as { results: { token: string }[] }).results.map((row) => row.token);
  t.deepEqual(await results('method=POST'), [tokenOf(post)]);
  t.deepEqual(await results('url=/orders'), [tokenOf(post), tokenOf(get)]);
  t.deepEqual((await results('limit=10')).slice(0, 3), [tokenOf(other), tokenOf(post), tokenOf(get)]);
});

test('PROFILER_MAX_PROFILES bounds the profiles kept in memory: past it the oldest are gone', async (t) => {
  const { port, profiled } = await serve(noRedis({ PROFILER_MAX_PROFILES: '3' }));
  const tokens: string[] = [];
  for (let i = 0; i < 6; i++) {
    tokens.push(tokenOf(await httpRequest(port, { path: `/n/${i}` })));
    await profiled.profiler.writer.whenIdle();
  }
  t.is(await profiled.profiler.storage.count(), 3);
  for (const token of tokens.slice(0, 3)) t.is((await json(port, `/_profiler/${token}`)).status, 404, `${token} was removed`);
  for (const token of tokens.slice(3)) t.is((await json(port, `/_profiler/${token}`)).status, 200, `${token} is kept`);
});

test('PROFILER_MAX_BYTES bounds the bytes kept in memory: past it the oldest profiles are gone, and what stays fits', async (t) => {
  const maxBytes = 1024 * 1024;
  const { port, profiled } = await serve(noRedis({ PROFILER_MAX_BYTES: String(maxBytes), PROFILER_MAX_PROFILE_BYTES: String(512 * 1024) }));
  const tokens: string[] = [];
  for (let i = 0; i < 8; i++) {
    tokens.push(tokenOf(await httpRequest(port, { path: `/big?kb=200&i=${i}` })));
    await profiled.profiler.writer.whenIdle();
  }
  const { storage } = profiled.profiler;
  const kept = (await storage.find({ limit: 100 })).map((row) => row.token);
  t.true(kept.length >= 3 && kept.length < 8, `${kept.length} kept of 8 profiles of over 200 KiB`);
  t.deepEqual(kept, tokens.slice(-kept.length).reverse(), 'the newest are those kept');
  let bytes = 0;
  for (const token of kept) {
    const found = await storage.read(token);
    if (found.kind === 'found') bytes += Buffer.byteLength(found.json);
  }
  t.true(bytes > 200 * 1024 * kept.length && bytes <= maxBytes, `${bytes} bytes kept`);
  t.is((await json(port, `/_profiler/${tokens[0] ?? ''}`)).status, 404);
  t.is((await storedProfile(profiled.profiler, tokens[7])).url.includes('/big?kb=200&i=7'), true);
});

test('an Express application with loupe() and no REDIS_URL is profiled into memory, with its pages', async (t) => {
  const middleware = loupe({ env: noRedis(), log: () => undefined });
  const app = express();
  app.use(middleware);
  app.get('/page', (_req, res) => void res.type('html').send(HTML_PAGE));
  const port = await listen(http.createServer(app));
  closers.push(() => middleware.close());
  const profiler = await middleware.start();
  t.is(profiler?.config.storage, 'memory');
  const panel = await assertPagesServed(t, port);
  t.true(panel.body.includes('/page'));
});

test('with no REDIS_URL in its environment, an Express application opens no Redis connection and loads no Redis client', async (t) => {
  t.timeout(60_000);
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['REDIS_URL'];
  delete env['REDIS_CLUSTER_NODES'];
  const { stdout } = await promisify(execFile)(process.execPath, [...TYPESCRIPT, path.resolve(__dirname, '..', '..', 'fixtures', 'express-without-redis.ts')], { cwd: path.resolve(__dirname, '..', '..', '..'), env });
  const report = JSON.parse(stdout) as { token: string; profileStatus: number; storage: string; ioredisLoaded: boolean; redisSockets: number; sockets: number };
  t.regex(report.token, /^[0-9a-f]{6}$/);
  t.is(report.profileStatus, 200);
  t.is(report.storage, 'memory');
  t.false(report.ioredisLoaded);
  t.true(report.sockets >= 1, 'the fixture\'s own requests were seen');
  t.is(report.redisSockets, 0);
});
