import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../helpers/test-server';

const REQUESTS = 50_000;
const THREADS = 2;
/** wrk sends a few requests past its count before its threads stop: the bound leaves room for them. */
const MAX_PROFILES = REQUESTS + 1_000;
const SCRIPT = path.resolve(__dirname, '..', 'fixtures', 'collect-tokens.lua');

/** Runs wrk until each thread has its share of responses; resolves with the tokens it saw. */
async function driveWithWrk(url: string, dir: string, requests = REQUESTS): Promise<string[]> {
  const tokensFile = path.join(dir, 'tokens.txt');
  const wrk = spawn('wrk', [`-t${THREADS}`, '-c32', '-d300s', '-s', SCRIPT, url], {
    env: { ...process.env, LOUPE_REQUESTS_PER_THREAD: String(requests / THREADS), LOUPE_TOKENS_FILE: tokensFile, LOUPE_DONE_DIR: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  wrk.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  wrk.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => wrk.on('exit', () => resolve()));
  // wrk sleeps for its whole duration; once every thread has stopped, SIGINT makes it finish now.
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    const finished = Array.from({ length: THREADS }, (_, i) => existsSync(path.join(dir, `done-${i + 1}`))).every(Boolean);
    if (finished) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  wrk.kill('SIGINT');
  await exited;
  if (!existsSync(tokensFile)) throw new Error(`wrk wrote no tokens:\n${output}`);
  return readFileSync(tokensFile, 'utf8').split('\n').filter((line) => line !== '');
}

test('after wrk drives 50,000 requests every token is unique and resolves, and Redis stays within the retention bound', async (t) => {
  if (spawnSync('wrk', ['--version']).error !== undefined) return t.fail('wrk is missing: apt-get install -y wrk (make test installs it).');
  // The count bound is under test here, not the byte bound: room for every profile.
  const server = await startTestServer({ PROFILER_MAX_PROFILES: String(MAX_PROFILES), PROFILER_MAX_BYTES: String(2 ** 30) });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-wrk-'));
  try {
    const profiler = server.profiler;
    if (profiler === null) return t.fail('the profiler is on in debug');
    const tokens = await driveWithWrk(`http://127.0.0.1:${server.port}/hello/anna`, dir);
    await profiler.writer.whenIdle();
    t.log(`not profiled ${profiler.stats().notProfiled}, writer ${JSON.stringify(profiler.writer.stats)}`);
    t.is(tokens.length, REQUESTS, 'every response carried a token');
    t.is(new Set(tokens).size, REQUESTS, 'every token is unique');
    t.is(profiler.writer.stats.dropped, 0);
    t.is(profiler.writer.stats.replaced, 0);

    const { redis, config } = server;
    const prefix = config.redis.prefix;
    const missing: string[] = [];
    for (let i = 0; i < tokens.length; i += 1000) {
      const batch = tokens.slice(i, i + 1000);
      const found = await redis.exists(...batch.map((token) => `${prefix}profile:${token}`));
      if (found !== batch.length) missing.push(...batch.slice(0, 5));
    }
    t.deepEqual(missing, [], 'every token resolves to its stored profile');
    const sample = await redis.get(`${prefix}profile:${tokens[tokens.length - 1] ?? ''}`);
    t.is(JSON.parse(sample ?? '{}').token, tokens[tokens.length - 1]);

    // Past the bound: the oldest profiles go and the profile keys stay at the bound.
    const lengths = await Promise.all(tokens.slice(-200).map((token) => redis.strlen(`${prefix}profile:${token}`)));
    const largest = Math.max(...lengths);
    const before = await redis.zcard(`${prefix}profiler:index`);
    const more = await driveWithWrk(`http://127.0.0.1:${server.port}/hello/bob`, mkdtempSync(path.join(os.tmpdir(), 'loupe-wrk-')), 5_000);
    await profiler.writer.whenIdle();
    t.true(before >= REQUESTS && before < MAX_PROFILES);
    t.is(await redis.zcard(`${prefix}profiler:index`), MAX_PROFILES, 'the index stays at PROFILER_MAX_PROFILES');
    t.is(await redis.hlen(`${prefix}profiler:meta`), MAX_PROFILES);
    t.is(await redis.exists(`${prefix}profile:${tokens[0] ?? ''}`), 0, 'the oldest profile was removed');
    t.is(await redis.exists(`${prefix}profile:${more[more.length - 1] ?? ''}`), 1, 'the newest profile is there');
    let profileBytes = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}profile:*`, 'COUNT', 5000);
      cursor = next;
      if (keys.length > 0) profileBytes += (await Promise.all(keys.map((key) => redis.strlen(key)))).reduce((a, b) => a + b, 0);
    } while (cursor !== '0');
    t.log(`largest profile ${largest} bytes; stored profile bytes ${profileBytes} for ${MAX_PROFILES} profiles`);
    t.true(profileBytes <= MAX_PROFILES * largest * 1.05, 'stored profiles stay within PROFILER_MAX_PROFILES × profile size');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
});
