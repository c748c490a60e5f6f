import http from 'node:http';
import { type AddressInfo } from 'node:net';
import test from 'ava';
import express from 'express';
import { loupe as expressLoupe } from '../../src/profiler/adapters/express';
import { ProfileKeys } from '../../src/profiler/storage/profile-keys';
import { RedisProfileStorage } from '../../src/profiler/storage/redis-profile-storage';
import { TokenAllocator } from '../../src/profiler/storage/token-allocator';
import { connectRedis } from '../../src/redis/connect-redis';
import { type RedisClient } from '../../src/redis/redis-client';
import { TEST_CLIENT_TIMEOUTS, testKeyPrefix } from '../helpers/test-redis';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { startThrowawayCluster, type ThrowawayCluster } from '../helpers/throwaway-cluster';
import { runMain } from '../cli/run-loupe';
import { cookieOf, pollFor, timedGet, tokensOf, traffic } from '../faults/fault-probes';
import { profileStorageContract } from '../profiler/storage/profile-storage-contract';

// One cluster for the file (its ports are fixed); every test serial, the one that kills a master last.
let cluster: ThrowawayCluster | undefined;
const clients: RedisClient[] = [];

test.before(async () => {
  cluster = await startThrowawayCluster();
});

test.after.always(async () => {
  for (const client of clients) client.disconnect();
  await cluster?.stop();
});

function running(): ThrowawayCluster {
  if (cluster === undefined) throw new Error('the cluster did not start');
  return cluster;
}

async function client(name: string): Promise<RedisClient> {
  const redis = await connectRedis(running().url, name, TEST_CLIENT_TIMEOUTS);
  clients.push(redis);
  return redis;
}

// Each of the 16 groups keeps its share of maxProfiles and maxBytes: the contract's retention cases
// write tokens that all fall in group 0 (c10000, c20000…), so that group is given the whole limits.
profileStorageContract(test.serial, 'RedisProfileStorage on a cluster, in 16 groups', async ({ maxProfiles, maxBytes, lifetime }) => {
  return new RedisProfileStorage({ redis: await client('loupe-test-contract'), prefix: testKeyPrefix(), groups: 16, hashTags: true, lifetime, maxProfiles: maxProfiles * 16, maxBytes: maxBytes * 16 });
});

/** The JSON answer of a profiler page. */
async function json(port: number, path: string): Promise<Record<string, unknown>> {
  const sample = await timedGet(port, path, { accept: 'application/json' });
  if (sample.status !== 200) throw new Error(`${path}: ${sample.status} ${sample.body}`);
  return JSON.parse(sample.body) as Record<string, unknown>;
}

test.serial('the server on a cluster: every request gets a token, its profile is stored in its group on one of every master, and the panel, the JSON API, search, latest, the live feed and the CLI find it; sessions and login throttling work', async (t) => {
  t.timeout(60_000);
  const { url, node, masterOf } = running();
  const server = await startTestServer({ REDIS_URL: url });
  try {
    const profiler = server.profiler;
    if (profiler === null) return t.fail('the profiler is on in debug');
    const prefix = server.config.redis.prefix;
    const keys = new ProfileKeys({ prefix, groups: 16, hashTags: true });
    const session = await timedGet(server.port, '/session');
    const samples = await traffic(server.port, 240);
    await profiler.writer.whenIdle();
    const tokens = tokensOf(samples);
    t.is(tokens.length, 240, 'every request got a token');
    t.is(new Set(tokens).size, 240, 'no token twice');
    t.like(profiler.stats(), { writer: { stored: 241, dropped: 0 }, notProfiled: 0 });
    t.is(await profiler.storage.count(), 241);

    // Every group's keys in one slot; the slots of the groups on every master.
    const mastersHolding = new Set<number>();
    for (const group of keys.groups) {
      const slot = await server.redis.cluster('KEYSLOT', group.index);
      for (const key of [group.meta, group.sizes, group.bytes, group.profilePrefix]) t.is(await server.redis.cluster('KEYSLOT', key), slot);
      const master = await masterOf(group.index);
      // The index, search rows, sizes, total, the writer's record and the group's profiles.
      t.true((await node(master).cluster('COUNTKEYSINSLOT', slot)) >= 6, `group ${group.group} on ${master}`);
      mastersHolding.add(master);
    }
    t.is(mastersHolding.size, 3, 'the groups are spread over the three masters');
    t.is(await server.redis.exists(keys.tokens), 1, 'the token hash under its own tag');
    for (const token of tokens) t.is(await server.redis.exists(keys.of(token).profile(token)), 1, token);

    // Read back through the panel and the JSON API, found by search and latest.
    const [one = ''] = tokens;
    const page = await timedGet(server.port, `/_profiler/${one}`);
    t.is(page.status, 200);
    t.true(page.body.includes('/hello/anna'));
    t.is((await json(server.port, `/_profiler/${one}`))['token'], one);
    const found = (await json(server.port, '/_profiler/search?limit=20'))['results'] as { token: string; time: number }[];
    t.is(found.length, 20);
    t.true(found.every((row) => tokens.includes(row.token)));
    t.deepEqual(
      found.map((row) => row.time),
      found.map((row) => row.time).sort((a, b) => b - a),
      'newest first across the groups',
    );
    t.is((await json(server.port, '/_profiler/latest'))['token'], found[0]?.token);
    const listed = await runMain(['profiler:list', '--json', '--limit', '5'], { REDIS_URL: url, REDIS_PREFIX: prefix });
    t.is(listed.code, 0, listed.stderr);
    t.deepEqual(
      (JSON.parse(listed.stdout) as { token: string }[]).map((row) => row.token),
      found.slice(0, 5).map((row) => row.token),
    );

    // The live feed subscribes on one node; every batch stored is announced to it.
    const announced: string[] = [];
    profiler.live.onMessage((message) => announced.push(...(JSON.parse(message) as { token: string }[]).map((summary) => summary.token)));
    await profiler.live.start();
    const live = tokensOf(await traffic(server.port, 16));
    await pollFor(async () => (live.every((token) => announced.includes(token)) ? true : undefined), 5_000);
    t.deepEqual(live.filter((token) => !announced.includes(token)), [], 'every profile announced');
    t.is((await timedGet(server.port, '/session', { cookie: cookieOf(session) })).status, 200, 'sessions work');
    // Login throttling counts in the cluster: the sixth wrong password is refused.
    const basic = `Basic ${Buffer.from('admin:wrong').toString('base64')}`;
    const attempts = [];
    for (let attempt = 0; attempt < 6; attempt++) attempts.push((await timedGet(server.port, '/admin', { accept: 'application/json', authorization: basic })).status);
    t.deepEqual(attempts, [401, 401, 401, 401, 401, 429]);
    t.true((await server.redis.exists(`${prefix}login-throttle:ip:127.0.0.1`)) === 1, 'counted in Redis, not in memory');
  } finally {
    await server.close();
  }
});

test.serial('an Express application profiled by loupe-kernel/express on a cluster: every response\'s profile is stored and its pages and search find it', async (t) => {
  const prefix = testKeyPrefix();
  const app = express();
  const middleware = expressLoupe({ enabled: true, env: { REDIS_URL: running().url, REDIS_PREFIX: prefix }, log: () => undefined });
  app.use(middleware);
  app.get('/items/:id', (req, res) => void res.json({ id: req.params.id }));
  const profiler = await middleware.start();
  if (profiler === null) throw new Error('The Express adapter is off.');
  t.is(profiler.config.redis?.profileGroups, 16, 'profiles are spread over the groups of the cluster');
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const tokens: string[] = [];
    for (let id = 0; id < 20; id++) {
      const sample = await timedGet(port, `/items/${id}`);
      t.is(sample.status, 200);
      tokens.push(sample.token ?? '');
    }
    await profiler.writer.whenIdle();
    for (const [id, token] of tokens.entries()) {
      const profile = await json(port, `/_profiler/${token}`);
      t.like(profile, { token, url: `http://127.0.0.1:${port}/items/${id}`, statusCode: 200 });
    }
    const found = (await json(port, '/_profiler/search?limit=50'))['results'] as { token: string }[];
    const listed = new Set(found.map((row) => row.token));
    t.true(tokens.every((token) => listed.has(token)), 'search lists every profile');
  } finally {
    server.close();
    await middleware.close();
  }
});

test.serial('retention on a cluster holds per group: each of the 16 groups keeps its share of PROFILER_MAX_PROFILES', async (t) => {
  t.timeout(60_000);
  const server = await startTestServer({ REDIS_URL: running().url, PROFILER_MAX_PROFILES: '32' });
  try {
    const profiler = server.profiler;
    if (profiler === null) return t.fail('the profiler is on in debug');
    const keys = new ProfileKeys({ prefix: server.config.redis.prefix, groups: 16, hashTags: true });
    // One at a time, each in a millisecond of its own, so that the order sent is the order of the
    // start times (within one millisecond, retention orders by token, as Redis orders equal scores).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const samples = [];
    for (let i = 0; i < 160; i++) {
      samples.push(await timedGet(server.port, '/hello/anna', {}, agent));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    agent.destroy();
    const tokens = tokensOf(samples);
    await profiler.writer.whenIdle();
    t.is(profiler.stats().writer.stored, 160);
    const held = await Promise.all(keys.groups.map((group) => server.redis.zcard(group.index)));
    t.log(`profiles per group: ${held.join(' ')}`);
    t.true(held.every((count) => count <= 2));
    t.is(await profiler.storage.count(), 32);
    // The newest of each group are kept.
    const kept = (await profiler.storage.find({ limit: 100 })).map((summary) => summary.token);
    for (const group of keys.groups) {
      const newest = tokens.filter((token) => keys.of(token) === group).slice(-2);
      t.true(newest.every((token) => kept.includes(token)), `group ${group.group}`);
    }
  } finally {
    await server.close();
  }
});

/** Takes `count` tokens from `allocator`, letting its prefetches land between rounds. */
async function take(allocator: TokenAllocator, count: number): Promise<string[]> {
  const tokens: string[] = [];
  while (tokens.length < count) {
    for (let i = 0; i < 100; i++) {
      const token = allocator.allocate();
      if (token !== null) tokens.push(token);
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return tokens;
}

test.serial('token blocks on a cluster: a new epoch with nothing stored stops checking; one started while profiles are stored never hands out their tokens', async (t) => {
  const redis = await client('loupe-test-tokens');
  const prefix = testKeyPrefix();
  const layout = { groups: 16, hashTags: true };
  const keys = new ProfileKeys({ prefix, ...layout });
  const first = new TokenAllocator({ redis, prefix, ...layout, blockSize: 512 });
  await first.start();
  t.is(await redis.hget(keys.tokens, 'check'), '0', 'no profile indexed in any group: no check');
  const old = await take(first, 3_000);
  const storage = new RedisProfileStorage({ redis, prefix, ...layout, lifetime: 600, maxProfiles: 100_000 });
  await storage.write(old.map((token, i) => ({ summary: { token, parent: null, ip: '127.0.0.1', method: 'GET', url: 'http://h/', time: Date.now() + i, statusCode: 200 }, json: '{}' })));
  // The hash alone is lost (evicted); a process that knew no key starts a new epoch.
  await redis.del(keys.tokens);
  const fresh = new TokenAllocator({ redis, prefix, ...layout, blockSize: 512 });
  await fresh.start();
  t.is(await redis.hget(keys.tokens, 'check'), '1', 'profiles are indexed: every block is checked');
  const taken = new Set(old);
  t.deepEqual((await take(fresh, 6_000)).filter((token) => taken.has(token)), []);
  await storage.purge();
  await redis.del(keys.tokens);
});

/** Polls until the writer has settled everything: nothing queued, no batch held, writing resumed. */
async function settled(profiler: NonNullable<TestServer['profiler']>, timeoutMs: number): Promise<boolean> {
  const done = await pollFor(async () => {
    const { writer } = profiler.stats();
    return writer.state === 'idle' && writer.queued === 0 && writer.unconfirmed === 0 ? true : undefined;
  }, timeoutMs);
  return done === true;
}

// Last: the cluster has one master without a replica afterwards.
test.serial('a master killed mid-traffic: every request is answered, the counters account for every one of them, and profiles are stored again once its replica took over', async (t) => {
  t.timeout(60_000);
  const { url, kill, masterOf, masters, whenOk } = running();
  const server = await startTestServer({ REDIS_URL: url, REDIS_COMMAND_TIMEOUT_MS: '1000' });
  try {
    const profiler = server.profiler;
    if (profiler === null) return t.fail('the profiler is on in debug');
    const keys = new ProfileKeys({ prefix: server.config.redis.prefix, groups: 16, hashTags: true });
    const before = await traffic(server.port, 200);
    await profiler.writer.whenIdle();
    // The master of the most groups.
    const byMaster = new Map<number, number[]>();
    for (const group of keys.groups) {
      const master = await masterOf(group.index);
      byMaster.set(master, [...(byMaster.get(master) ?? []), group.group]);
    }
    const [victim, victimGroups] = [...byMaster].sort((a, b) => b[1].length - a[1].length)[0] ?? [0, []];
    let killedAt = 0;
    let killed: Promise<void> | undefined;
    const during = await traffic(server.port, 1600, '/hello/anna', 8, (done) => {
      if (done < 200 || killed !== undefined) return;
      killedAt = Date.now();
      killed = kill(victim);
    });
    await killed;
    await whenOk(30_000);
    const failover = Date.now() - killedAt;
    const [promoted, ...others] = (await masters()).filter((port) => !byMaster.has(port));
    // The writer finds out by itself (it checks every second): until a request's profile is stored again.
    let probes = 0;
    const storedAgain = await pollFor(async () => {
      probes += 1;
      const { token } = await timedGet(server.port, '/hello/anna');
      await profiler.writer.whenIdle();
      return token !== undefined && (await profiler.storage.read(token)).kind === 'found' ? true : undefined;
    }, 20_000);
    const recovered = Date.now() - killedAt;
    const after = await traffic(server.port, 400);
    t.true(await settled(profiler, 20_000), 'the writer settled');
    const { writer, notProfiled } = profiler.stats();
    const sent = before.length + during.length + probes + after.length;
    t.log(`killed master ${victim} (groups ${victimGroups.join(', ')}); ${String(promoted)} took over, the cluster ok ${failover} ms after the kill, profiles stored again after ${recovered} ms`);
    t.log(`${sent} requests: stored ${writer.stored}, dropped ${writer.dropped}, not profiled ${notProfiled}; last error: ${writer.lastError ?? 'none'}`);

    t.true(storedAgain, 'profiles are stored again');
    t.true([...before, ...during, ...after].every((sample) => sample.status === 200), 'every request is answered');
    t.is(writer.stored + writer.dropped + notProfiled, sent, 'stored, dropped and not profiled account for every request');
    t.true(promoted !== undefined && others.length === 0, 'one replica took over');
    // Every profile after the failover is stored, those of the killed master's groups on its replica.
    const afterTokens = tokensOf(after);
    t.is(afterTokens.length, after.length);
    const reads = await Promise.all(afterTokens.map((token) => profiler.storage.read(token)));
    t.true(reads.every((read) => read.kind === 'found'), 'every profile after the failover is stored');
    const onPromoted = afterTokens.filter((token) => victimGroups.includes(keys.of(token).group));
    t.true(onPromoted.length > 0);
    t.is(await masterOf(keys.of(onPromoted[0] ?? '').index), promoted ?? -1, 'in a group the promoted replica serves');
    // What became of the tokens handed out meanwhile: stored, marked dropped, or stored and lost with
    // the killed master (Redis replicates asynchronously: a write it confirmed may not have reached
    // its replica).
    const handedOut = tokensOf(during);
    const states = await Promise.all(handedOut.map((token) => profiler.storage.read(token)));
    const count = (kind: string): number => states.filter((state) => state.kind === kind).length;
    t.log(`tokens handed out during the traffic: ${handedOut.length}; stored ${count('found')}, marked dropped ${count('dropped')}, lost with the master ${count('missing')}`);
  } finally {
    await server.close();
  }
});
