import test from 'ava';
import { type RedisClient } from '../../src/redis/redis-client';
import { parseProfile } from '../../src/profiler/profile-schema';
import { runLoupe } from '../cli/run-loupe';
import { httpRequest, type HttpRequestOptions } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

const BUDGET = 64 * 1024;

/** What the profiler's keys take in Redis: string lengths plus search rows, and MEMORY USAGE. */
async function footprint(redis: RedisClient, prefix: string): Promise<{ bytes: number; memory: number }> {
  let bytes = 0;
  let memory = 0;
  for (const key of await redis.keys(`${prefix}profile*`)) {
    const type = await redis.type(key);
    if (type === 'string') bytes += await redis.strlen(key);
    if (key === `${prefix}profiler:meta`) for (const row of await redis.hvals(key)) bytes += Buffer.byteLength(row);
    memory += Number(await redis.memory('USAGE', key, 'SAMPLES', '0'));
  }
  return { bytes, memory };
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends the request; answers its token once its profile (and its sub-request's) is stored. */
async function profiled(server: TestServer, options: HttpRequestOptions): Promise<string> {
  const response = await httpRequest(server.port, options);
  const token = response.headers['x-debug-token'];
  if (typeof token !== 'string') throw new Error(`no token for ${options.method ?? 'GET'} ${options.path.slice(0, 40)}…: ${response.status}`);
  const child = response.headers['x-previous-debug-token'];
  const stored = (t: string): Promise<boolean> => server.redis.exists(`${server.config.redis.prefix}profile:${t}`).then((n) => n === 1);
  await until(async () => (await stored(token)) && (typeof child !== 'string' || (await stored(child))), `the profile ${token} is stored`);
  return token;
}

const HUGE: Record<string, HttpRequestOptions> = {
  '404, 100 KB query': { path: `/missing?q=${'a'.repeat(100_000)}` },
  '404, 100 KB of escaped query': { path: `/missing?q=${'%01'.repeat(33_000)}` },
  '404, 60 KB path and 60 KB referer': { path: `/${'p'.repeat(60_000)}`, headers: { referer: 'r'.repeat(60_000) } },
  '404, 60 KB header': { path: '/missing', headers: { 'x-big': 'h'.repeat(60_000) } },
  'routed page, 90 KB query': { path: `/hello/anna?q=${'a'.repeat(90_000)}` },
  'routed page, 60 KB JSON body': {
    method: 'POST',
    path: '/api/echo',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items: Array.from({ length: 150 }, (_, i) => `${i}:${'\u0001'.repeat(400)}`) }),
  },
};

test('huge requests to a 404 and to routed pages: each stored profile fits the budget, and the cut profile opens in the panel and the CLI', async (t) => {
  const server = await startTestServer();
  try {
    const prefix = server.config.redis.prefix;
    for (const [name, options] of Object.entries(HUGE)) {
      const before = await footprint(server.redis, prefix);
      const token = await profiled(server, options);
      const after = await footprint(server.redis, prefix);
      const meta = await server.redis.hget(`${prefix}profiler:meta`, token);
      const child = parseProfile((await server.redis.get(`${prefix}profile:${token}`)) ?? '');
      if (!child.ok) return t.fail(child.error);
      const sizes = [token, ...child.profile.children].map((each) => server.redis.strlen(`${prefix}profile:${each}`));
      const [main, sub] = await Promise.all(sizes);
      t.log(`${name}: profile ${main} B, sub-request ${sub ?? '-'} B, search row ${Buffer.byteLength(meta ?? '')} B; Redis +${after.bytes - before.bytes} B (MEMORY USAGE +${after.memory - before.memory} B)`);
      for (const size of [main, sub]) if (size !== undefined) t.true(size <= BUDGET, `${name}: ${size} bytes stored`);
      t.true(Buffer.byteLength(meta ?? '') <= 2_048, `${name}: the search row keeps a cut URL`);
    }

    const token = await profiled(server, HUGE['404, 60 KB path and 60 KB referer'] ?? { path: '/' });
    const page = await httpRequest(server.port, { path: `/_profiler/${token}` });
    t.is(page.status, 200);
    t.regex(page.body, /Cut to fit PROFILER_MAX_PROFILE_BYTES/);
    t.regex(page.body, /… \(cut: [\d,]+ more bytes/);
    for (const panel of ['request', 'exception', 'router', 'logs', 'events', 'machine']) {
      t.is((await httpRequest(server.port, { path: `/_profiler/${token}?panel=${panel}` })).status, 200, panel);
    }
    const json = await httpRequest(server.port, { path: `/_profiler/${token}`, headers: { accept: 'application/json' } });
    const parsedJson = parseProfile(json.body);
    t.true(parsedJson.ok, parsedJson.ok ? "" : parsedJson.error);
    const shown = await runLoupe(['profiler:show', token], { REDIS_PREFIX: prefix });
    t.is(shown.code, 0, shown.stderr);
    t.regex(shown.stdout, /\(cut: [\d,]+ more bytes/);

    const count = 10;
    const before = await footprint(server.redis, prefix);
    for (let i = 0; i < count; i++) await profiled(server, HUGE['404, 100 KB of escaped query'] ?? { path: '/' });
    const after = await footprint(server.redis, prefix);
    const perRequest = (after.bytes - before.bytes) / count;
    t.log(`${count} requests of 100 KB escaped query to a 404: Redis +${((after.bytes - before.bytes) / 1024 / 1024).toFixed(2)} MiB stored, MEMORY USAGE +${((after.memory - before.memory) / 1024 / 1024).toFixed(2)} MiB (${Math.round(perRequest)} B a request)`);
    t.true(perRequest <= 2 * BUDGET + 4_096, 'a request and its error sub-request take at most two budgets and their search rows');
  } finally {
    await server.close();
  }
});

test('PROFILER_MAX_BYTES bounds what all profiles take: the oldest go first, and the running total matches the keys', async (t) => {
  const server = await startTestServer({ PROFILER_MAX_BYTES: String(1024 * 1024), PROFILER_MAX_PROFILE_BYTES: String(BUDGET) });
  try {
    const prefix = server.config.redis.prefix;
    const tokens: string[] = [];
    for (let i = 0; i < 60; i++) tokens.push(await profiled(server, HUGE['routed page, 90 KB query'] ?? { path: '/' }));
    await server.whenIdle();
    const total = Number(await server.redis.get(`${prefix}profiler:bytes`));
    const { bytes } = await footprint(server.redis, prefix);
    const held = await server.redis.zcard(`${prefix}profiler:index`);
    let sizes = 0;
    for (const token of await server.redis.zrange(`${prefix}profiler:index`, 0, -1)) {
      sizes += (await server.redis.strlen(`${prefix}profile:${token}`)) + Buffer.byteLength((await server.redis.hget(`${prefix}profiler:meta`, token)) ?? '');
    }
    t.log(`60 profiles written under PROFILER_MAX_BYTES=1 MiB: ${held} kept, running total ${total} B, keys ${sizes} B (all profiler strings ${bytes} B)`);
    t.true(total <= 1024 * 1024);
    t.is(total, sizes, 'the running total is what the kept profiles and their search rows take');
    t.true(held < 60 && held > 10);
    t.is((await server.profiler?.storage.read(tokens[0] ?? ''))?.kind, 'missing', 'the oldest profile went first');
    t.is((await server.profiler?.storage.read(tokens.at(-1) ?? ''))?.kind, 'found', 'the newest is kept');
  } finally {
    await server.close();
  }
});
