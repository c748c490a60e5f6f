import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import test from 'ava';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { loupe as expressLoupe } from '../../../src/profiler/adapters/express';
import { loupe as fastifyLoupe } from '../../../src/profiler/adapters/fastify';
import { loupe as honoLoupe } from '../../../src/profiler/adapters/hono';
import { profileServer } from '../../../src/profiler/adapters/node';
import { storedProfile } from '../../helpers/adapter-test-bed';
import { httpRequest, type HttpResult } from '../../helpers/http-client';
import { answers } from '../../helpers/redis-process';
import { startThrowawayRedis } from '../../helpers/throwaway-redis';

/*
 * REDIS_URL names a Redis that does not answer: every adapter starts all the same, the
 * application answers its requests as usual (without a token), the profiler says so once and
 * counts what it could not profile, and profiles again once Redis answers.
 */

/** Nothing listens on port 1. */
const CLOSED = 'redis://127.0.0.1:1';

const closers: (() => Promise<void>)[] = [];
test.after.always(async () => {
  for (const close of closers.reverse()) await close();
});

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return (server.address() as AddressInfo).port;
}

const hello = (_req: http.IncomingMessage, res: http.ServerResponse): void => void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('hello');

/** Asks `/hello` `times` times; every answer must be the application's own, without a token. */
async function assertServedWithoutProfiles(t: import('ava').ExecutionContext, port: number, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await httpRequest(port, { path: '/hello' });
    t.is(res.status, 200);
    t.is(res.body, 'hello');
    t.is(res.headers['x-debug-token'], undefined);
  }
}

test('profileServer with an unreachable Redis: the server answers as usual, one line says why, the requests not profiled are counted', async (t) => {
  const lines: string[] = [];
  const server = http.createServer(hello);
  const profiled = await profileServer(server, { env: { NODE_ENV: 'development', REDIS_URL: CLOSED }, log: (line) => lines.push(line) });
  if (profiled === null) return t.fail('The profiler is off.');
  closers.push(() => profiled.close());
  const port = await listen(server);
  await assertServedWithoutProfiles(t, port, 5);
  t.is(profiled.profiler.config.storage, 'redis');
  t.is(profiled.profiler.stats().notProfiled, 5);
  t.is(lines.length, 1, lines.join('\n'));
  t.regex(lines[0] ?? '', /^Profiler: cannot reach Redis at redis:\/\/127\.0\.0\.1:1 \(.+\)\. The application is served without profiles until it answers/);
  // The pages say why they cannot show profiles, and the status page answers from this process's counters.
  t.is((await httpRequest(port, { path: '/_profiler/abcdef' })).status, 503);
  const status = await httpRequest(port, { path: '/_profiler/status', headers: { Accept: 'application/json' } });
  t.like(JSON.parse(status.body), { notProfiled: 5, storage: { reachable: false } });
});

test('an Express application with an unreachable Redis answers its requests (no error passed on) and says so once', async (t) => {
  const lines: string[] = [];
  const middleware = expressLoupe({ env: { NODE_ENV: 'development', REDIS_URL: CLOSED }, log: (line) => lines.push(line) });
  closers.push(() => middleware.close());
  const app = express();
  app.use(middleware);
  app.get('/hello', (_req, res) => void res.type('text').send('hello'));
  const port = await listen(http.createServer(app));
  await assertServedWithoutProfiles(t, port, 3);
  t.is((await middleware.start())?.stats().notProfiled, 3);
  t.is(lines.length, 1, lines.join('\n'));
});

test('a Fastify application registers the plugin with an unreachable Redis and answers its requests', async (t) => {
  const lines: string[] = [];
  const app = Fastify();
  closers.push(() => app.close());
  await app.register(fastifyLoupe, { env: { NODE_ENV: 'development', REDIS_URL: CLOSED }, log: (line: string) => lines.push(line) });
  app.get('/hello', async (_request, reply) => reply.type('text/plain').send('hello'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  await assertServedWithoutProfiles(t, port, 3);
  t.is(app.loupe?.stats().notProfiled, 3);
  t.is(lines.length, 1, lines.join('\n'));
});

test('a Hono application with an unreachable Redis starts its middleware, answers its requests (none handed to onError) and says so once', async (t) => {
  const lines: string[] = [];
  const middleware = honoLoupe({ env: { NODE_ENV: 'development', REDIS_URL: CLOSED }, log: (line) => lines.push(line) });
  closers.push(() => middleware.close());
  const errors: unknown[] = [];
  const app = new Hono();
  app.use(middleware);
  app.get('/hello', (c) => c.text('hello'));
  app.onError((error, c) => {
    errors.push(error);
    return c.text('onError', 500);
  });
  // Started before the first request: a Redis away does not fail it.
  const profiler = await middleware.start();
  if (profiler === null) return t.fail('The profiler is off.');
  const port = await listen(http.createServer(getRequestListener(app.fetch)));
  await assertServedWithoutProfiles(t, port, 3);
  t.is(profiler.stats().notProfiled, 3);
  t.deepEqual(errors, []);
  t.is(lines.length, 1, lines.join('\n'));
});

test('once the Redis of REDIS_URL answers, requests are profiled again without a restart, and the profiler says so', async (t) => {
  t.timeout(60_000);
  const port = 6416;
  if (await answers(port)) return t.fail(`port ${port} is in use: stop what listens there (redis-cli -p ${port} shutdown nosave)`);
  const lines: string[] = [];
  const server = http.createServer(hello);
  const profiled = await profileServer(server, { env: { NODE_ENV: 'development', REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_PREFIX: 'loupe-test-away:' }, log: (line) => lines.push(line) });
  if (profiled === null) return t.fail('The profiler is off.');
  closers.push(() => profiled.close());
  const appPort = await listen(server);
  await assertServedWithoutProfiles(t, appPort, 2);
  const redis = await startThrowawayRedis(port);
  closers.push(() => redis.stop());
  let profiledResponse: HttpResult | null = null;
  // The profiler's connections retry every second or two: a bounded number of tries, not a timed assertion.
  for (let attempt = 0; attempt < 200 && profiledResponse === null; attempt++) {
    const res = await httpRequest(appPort, { path: '/hello' });
    t.is(res.status, 200);
    if (res.headers['x-debug-token'] !== undefined) profiledResponse = res;
    else await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (profiledResponse === null) return t.fail('no request was profiled after Redis came back');
  const profile = await storedProfile(profiled.profiler, profiledResponse.headers['x-debug-token']);
  t.true(profile.url.endsWith('/hello'));
  t.is(await redis.admin.exists(`loupe-test-away:profile:${profile.token}`), 1, 'stored in that Redis');
  t.deepEqual(
    lines.map((line) => line.replace(/ \(.*/s, '')),
    ['Profiler: cannot reach Redis at redis://127.0.0.1:6416', 'Profiler: Redis at redis://127.0.0.1:6416 answers again; requests are profiled.'],
  );
});
