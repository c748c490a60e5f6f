import http from 'node:http';
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { createClient } from '@redis/client';
import Redis from 'ioredis';
import { LoupeResponse, type Profile, type RouteDefinition } from '../../../src';
import { type HttpClientCollectorData, type RedisCollectorData } from '../../../src/profiler/collect/collectors/app-io-collectors';
import { profiledRequest, startIoApp, startUpstream, type IoApp } from './io-app';

/*
 * PROFILER_CAPTURE's `-name`: one library of a kind left out while the other of that kind is
 * still captured, over real HTTP with the real clients: fetch (undici) beside node:http, and
 * ioredis beside node-redis, against a local upstream and the test Redis.
 */

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const keyPrefix = `loupe-test-capture-library:${randomBytes(3).toString('hex')}:`;

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let ioredis: Redis;
let nodeRedis: ReturnType<typeof createClient>;
const apps: IoApp[] = [];

const httpClients = (profile: Profile): string[] => (profile.collectors['http_client'] as unknown as HttpClientCollectorData).calls.map((call) => `${call.client} ${call.method}`);
const redisClients = (profile: Profile): string[] => (profile.collectors['redis'] as unknown as RedisCollectorData).commands.map((command) => `${command.client} ${command.command}`);

test.before(async (t) => {
  upstream = await startUpstream();
  ioredis = new Redis(REDIS_URL, { lazyConnect: true });
  nodeRedis = createClient({ url: REDIS_URL });
  try {
    await ioredis.connect();
    await nodeRedis.connect();
  } catch (error) {
    t.fail(`No Redis at ${REDIS_URL}: start one with scripts/ensure-redis.sh (${String(error)}).`);
  }
});

test.after.always(async () => {
  for (const io of apps) await io.close();
  await upstream?.close();
  const keys = ioredis?.status === 'ready' ? await ioredis.keys(`${keyPrefix}*`) : [];
  if (keys.length > 0) await ioredis.del(...keys);
  ioredis?.disconnect();
  if (nodeRedis?.isOpen === true) await nodeRedis.quit();
});

/** A route that calls the upstream with fetch then node:http, and Redis with ioredis then node-redis. */
const bothOfEach: RouteDefinition = {
  name: 'both',
  path: '/both/{id}',
  methods: ['GET'],
  controller: {
    name: 'both',
    handle: async ({ params }) => {
      const id = params['id'] ?? '0';
      await (await fetch(`${upstream.url}/json?id=${id}`)).text();
      await new Promise<void>((resolve, reject) => http.get(`${upstream.url}/json?id=${id}`, (res) => res.resume().on('end', resolve)).on('error', reject));
      await ioredis.set(`${keyPrefix}io:${id}`, '1');
      await nodeRedis.get(`${keyPrefix}nr:${id}`);
      return LoupeResponse.json({ ok: true });
    },
  },
};

async function profileWith(capture: string | undefined): Promise<Profile> {
  const io = await startIoApp([bothOfEach], capture === undefined ? {} : { PROFILER_CAPTURE: capture });
  apps.push(io);
  return (await profiledRequest(io, { path: '/both/1' })).profile;
}

test.serial('by default both libraries of each kind are captured', async (t) => {
  const profile = await profileWith(undefined);
  t.deepEqual(httpClients(profile), ['fetch GET', 'http GET']);
  t.deepEqual(redisClients(profile), ['ioredis SET', 'node-redis GET']);
});

test.serial('PROFILER_CAPTURE=http,redis,-undici,-ioredis leaves out fetch and ioredis; node:http and node-redis are still captured', async (t) => {
  const profile = await profileWith('http,redis,-undici,-ioredis');
  t.deepEqual(httpClients(profile), ['http GET']);
  t.deepEqual(redisClients(profile), ['node-redis GET']);
});

test.serial('only left-out names (-node:http,-node-redis) capture everything else: fetch and ioredis, not the other two', async (t) => {
  const profile = await profileWith('-node:http,-node-redis');
  t.deepEqual(httpClients(profile), ['fetch GET']);
  t.deepEqual(redisClients(profile), ['ioredis SET']);
});

test.serial('a library named alone is the only one of its kind captured: PROFILER_CAPTURE=fetch,node-redis', async (t) => {
  const profile = await profileWith('fetch,node-redis');
  t.deepEqual(httpClients(profile), ['fetch GET']);
  t.deepEqual(redisClients(profile), ['node-redis GET']);
});
