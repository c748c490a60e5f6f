import { type ExecutionContext } from 'ava';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type Redis from 'ioredis';
import { type Profiler } from '../../src/profiler/profiler';
import { type TestServer } from '../helpers/test-server';

/** One timed request: how long it took, its status, its token, its body. */
export interface Sample {
  readonly path: string;
  readonly ms: number;
  readonly status: number;
  readonly token: string | undefined;
  /** The token of the main request when the response was rendered by the error sub-request. */
  readonly previousToken: string | undefined;
  readonly body: string;
  readonly setCookie: readonly string[];
}

/** A GET timed from the first byte sent to the last byte read. */
export function timedGet(port: number, path: string, headers: Readonly<Record<string, string>> = {}, agent: http.Agent | false = false): Promise<Sample> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const token = res.headers['x-debug-token'];
          const previousToken = res.headers['x-previous-debug-token'];
          resolve({
            path,
            ms: performance.now() - start,
            status: res.statusCode ?? 0,
            token: typeof token === 'string' ? token : undefined,
            previousToken: typeof previousToken === 'string' ? previousToken : undefined,
            body: Buffer.concat(chunks).toString('utf8'),
            setCookie: res.headers['set-cookie'] ?? [],
          });
        });
      })
      .on('error', reject);
  });
}

/** `count` GETs of `path`, `concurrency` at a time over kept-alive connections; `onProgress` after each round. */
export async function traffic(port: number, count: number, path = '/hello/anna', concurrency = 8, onProgress?: (done: number) => void): Promise<Sample[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const samples: Sample[] = [];
  try {
    for (let i = 0; i < count; i += concurrency) {
      samples.push(...(await Promise.all(Array.from({ length: Math.min(concurrency, count - i) }, () => timedGet(port, path, {}, agent)))));
      onProgress?.(samples.length);
    }
  } finally {
    agent.destroy();
  }
  return samples;
}

/** The `p` quantile (0–1) of the samples' durations, in ms. */
export function percentile(samples: readonly Sample[], p: number): number {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

export const ms = (value: number): string => `${value.toFixed(1)} ms`;

/** The tokens the samples carried, in order. */
export function tokensOf(samples: readonly Sample[]): string[] {
  return samples.flatMap((sample) => (sample.token === undefined ? [] : [sample.token]));
}

/** Every token the samples carried, the error sub-requests' and their main requests' alike. */
export function allTokensOf(samples: readonly Sample[]): string[] {
  return samples.flatMap((sample) => [sample.token, sample.previousToken].filter((token): token is string => token !== undefined));
}

/** How many tokens are given more than once. */
export function duplicates(tokens: readonly string[]): number {
  return tokens.length - new Set(tokens).size;
}

/** Where each token stands in Redis: its profile stored, a tombstone saying why not, or nothing (lost). */
export async function tokenStates(redis: Redis, prefix: string, tokens: readonly string[]): Promise<{ found: number; dropped: number; lost: string[] }> {
  let found = 0;
  let dropped = 0;
  const lost: string[] = [];
  for (const token of tokens) {
    const [profile, tombstone] = await redis.mget(`${prefix}profile:${token}`, `${prefix}profile-dropped:${token}`);
    if (profile !== null && profile !== undefined) found++;
    else if (tombstone !== null && tombstone !== undefined) dropped++;
    else lost.push(token);
  }
  return { found, dropped, lost };
}

/** Polls `check` every `intervalMs` until it answers a value, for at most `timeoutMs`; `undefined` if it never did. */
export async function pollFor<T>(check: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 100): Promise<T | undefined> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined || performance.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Milliseconds until a plain request's profile is stored again (a token handed out and its
 * profile in Redis), polled for at most `timeoutMs`; `undefined` if it never was.
 */
export async function msUntilStoredAgain(port: number, redis: Redis, prefix: string, timeoutMs = 15_000): Promise<number | undefined> {
  const start = performance.now();
  const token = await pollFor(async () => {
    const sample = await timedGet(port, '/hello/anna');
    if (sample.token === undefined) return undefined;
    return (await pollFor(async () => ((await redis.exists(`${prefix}profile:${sample.token ?? ''}`)) === 1 ? sample.token : undefined), 2_000, 20)) ?? undefined;
  }, timeoutMs);
  return token === undefined ? undefined : performance.now() - start;
}

/** The pages that need Redis, as one fault found them. */
export interface RedisPages {
  /** `/session` with a stored session: read, then saved. */
  readonly session: Sample;
  /** `/session` without a cookie: a new session, saved. */
  readonly newSession: Sample;
  /** `/_profiler/status` as JSON, then as HTML. */
  readonly status: Sample;
  readonly statusHtml: Sample;
  /** A stored profile's page, `latest` as JSON, a search as JSON. */
  readonly profile: Sample;
  readonly latest: Sample;
  readonly search: Sample;
}

/** The pages that need Redis, asked at once. */
export async function redisPages(port: number, sessionCookie: string, storedToken: string): Promise<RedisPages> {
  const json = { accept: 'application/json' };
  const [session, newSession, status, statusHtml, profile, latest, search] = await Promise.all([
    timedGet(port, '/session', { cookie: sessionCookie }),
    timedGet(port, '/session'),
    timedGet(port, '/_profiler/status', json),
    timedGet(port, '/_profiler/status'),
    timedGet(port, `/_profiler/${storedToken}`),
    timedGet(port, '/_profiler/latest', json),
    timedGet(port, '/_profiler/search?limit=5', json),
  ]);
  return { session, newSession, status, statusHtml, profile, latest, search };
}

/** One line per page: status and time. */
export function describePages(pages: RedisPages): string {
  return Object.entries(pages)
    .map(([name, sample]) => `${name} ${sample.status} in ${ms(sample.ms)}`)
    .join(', ');
}

/** The `name=value` of a response's session cookie, for the next request. */
export function cookieOf(sample: Sample): string {
  const cookie = sample.setCookie[0]?.split(';')[0];
  if (cookie === undefined) throw new Error(`${sample.path} set no cookie`);
  return cookie;
}

/** The JSON body of a sample, or `{}` when it is not a JSON object. */
export function jsonOf(sample: Sample): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(sample.body);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Whether the writer's counters match what Redis holds once it settled: one index row per stored
 * profile, one tombstone per dropped one.
 */
export async function storedCounts(redis: Redis, prefix: string): Promise<{ indexed: number; tombstones: number }> {
  let tombstones = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}profile-dropped:*`, 'COUNT', 1000);
    cursor = next;
    tombstones += keys.length;
  } while (cursor !== '0');
  return { indexed: await redis.zcard(`${prefix}profiler:index`), tombstones };
}

/** What every fault case starts from: a session, 800 requests stored, the writer idle. */
export interface WarmedUp {
  readonly profiler: Profiler;
  readonly prefix: string;
  /** The `/session` request that opened the session. */
  readonly first: Sample;
  readonly cookie: string;
  readonly before: Sample[];
  /** The token of the last request before the fault: its profile is stored. */
  readonly last: string;
}

/** Opens a session and sends 800 requests to `server`, then waits until their profiles are stored. */
export async function warmUp(server: TestServer): Promise<WarmedUp> {
  const profiler = server.profiler;
  if (profiler === null) throw new Error('the profiler is on in debug');
  const first = await timedGet(server.port, '/session');
  const before = await traffic(server.port, 800);
  await profiler.writer.whenIdle();
  return { profiler, prefix: server.config.redis.prefix, first, cookie: cookieOf(first), before, last: tokensOf(before).at(-1) ?? '' };
}

/** Redis is unreachable: every Redis page answered within `boundMs`, the session and profile pages 503, the status page 200 from memory. */
export function assertRedisPagesUnavailable(t: ExecutionContext, pages: RedisPages, boundMs: number): void {
  for (const [name, sample] of Object.entries(pages)) t.true(sample.ms < boundMs, `${name} answered in ${ms(sample.ms)}`);
  t.is(pages.session.status, 503);
  t.is(pages.newSession.status, 503);
  t.is(pages.status.status, 200);
  t.like(jsonOf(pages.status), { storage: { reachable: false }, indexed: null });
  t.regex(pages.statusHtml.body, /data-counter="storage">unreachable</);
  t.is(pages.profile.status, 503);
  t.like(jsonOf(pages.latest), { status: 503, code: 'LOUPE_ERR_PROFILER_STORAGE_UNAVAILABLE' });
  t.like(jsonOf(pages.search), { status: 503, code: 'LOUPE_ERR_PROFILER_STORAGE_UNAVAILABLE' });
}
