import { readFile } from 'node:fs/promises';
import net from 'node:net';
import test from 'ava';
import Redis from 'ioredis';
import { httpRequest, type HttpResult } from '../helpers/http-client';
import { runServerToExit, spawnServer, type SpawnedServer } from '../helpers/spawn-server';
import { isOpen, openWebSocket } from '../helpers/websocket-client';

// One supervisor at a time: each starts three processes that load the demo from its TypeScript sources.

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

interface WorkerStatusJson {
  readonly id: number;
  readonly pid: number;
  readonly restarts: number;
  /** Epoch milliseconds when the supervisor started this process. */
  readonly startedAt: number;
  readonly counters: { readonly requests: number; readonly stored: number; readonly dropped: number; readonly notProfiled: number } | null;
}

interface StatusJson {
  readonly worker: number;
  readonly workers: readonly WorkerStatusJson[];
}

/**
 * Resolves once the process `pid` has died: reaped, or a zombie (whose sockets are closed), so that
 * no new connection can reach its listening socket. A killed process may take a moment to be torn
 * down on a busy machine.
 */
async function gone(pid: number, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    // The state follows the command name in parentheses: `Z` for a zombie.
    if (stat === null || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return;
  }
  throw new Error(`Process ${pid} was still alive ${timeoutMs} ms after SIGKILL.`);
}

async function status(port: number): Promise<StatusJson> {
  const res = await httpRequest(port, { path: '/_profiler/status', headers: { accept: 'application/json' } });
  return JSON.parse(res.body) as StatusJson;
}

/**
 * Polls the status JSON until `done` holds (the workers report every second), or fails after
 * `timeoutMs`. A connection reset is tried again: one the kernel queued for a worker just killed
 * dies with it.
 */
async function statusWhen(port: number, done: (status: StatusJson) => boolean, timeoutMs = 15_000): Promise<StatusJson> {
  let last: StatusJson | string | null = null;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
    try {
      last = await status(port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
      last = 'ECONNRESET';
      continue;
    }
    if (done(last)) return last;
  }
  throw new Error(`The status never showed what was expected; last: ${JSON.stringify(last)}`);
}

function sum(status: StatusJson, counter: 'requests' | 'stored' | 'dropped' | 'notProfiled'): number {
  return status.workers.reduce((total, worker) => total + (worker.counters?.[counter] ?? 0), 0);
}

/** `count` requests to `path`, each on a new connection, `parallel` at a time. */
async function requests(port: number, path: string, count: number, parallel = 8): Promise<HttpResult[]> {
  const results: HttpResult[] = [];
  for (let sent = 0; sent < count; sent += parallel) {
    const batch = Array.from({ length: Math.min(parallel, count - sent) }, () => httpRequest(port, { path }));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

function tokenOf(res: HttpResult): string {
  const token = res.headers['x-debug-token'];
  if (typeof token !== 'string') throw new Error(`No X-Debug-Token on a ${res.status} response.`);
  return token;
}

async function startWorkers(env: Readonly<Record<string, string>> = {}): Promise<SpawnedServer> {
  return spawnServer({ WORKERS: '2', ...env });
}

test.serial('WORKERS=2: both workers answer on one port, tokens stay unique, every profile is stored, the live feed of either announces all, and the status page shows each worker', async (t) => {
  const server = await startWorkers();
  try {
    // Each worker tunes its own process; the supervisor's line names what the first one applied.
    t.regex(server.output(), /Loupe listening on http:\/\/127\.0\.0\.1:\d+ — profiler: .* \(APP_ENV=test, debug on, 2 workers; process tuned: V8 --no-allocation-site-pretenuring, uWS request heads up to 128 KiB\)/);
    // The start line is printed once, by the supervisor.
    t.is(server.output().match(/Loupe listening on/g)?.length, 1);
    // The live feed of the one worker this socket reaches announces what every worker stores.
    const live = await openWebSocket(server.port, '/_profiler/live');
    if (!isOpen(live)) throw new Error(`The live upgrade was refused: ${live.status} ${live.body}`);
    const answered = [...(await requests(server.port, '/hello/anna', 60)), ...(await requests(server.port, '/config.yaml', 20))];
    t.deepEqual(new Set(answered.map((res) => res.status)), new Set([200, 404]));
    const tokens = answered.map(tokenOf);
    t.is(new Set(tokens).size, tokens.length, 'a token was handed out twice');

    const after = await statusWhen(server.port, (s) => sum(s, 'stored') >= 80 + 20 && s.workers.every((w) => (w.counters?.requests ?? 0) > 0));
    t.deepEqual(after.workers.map((w) => w.id), [1, 2]);
    t.not(after.workers[0]?.pid, after.workers[1]?.pid);
    // 60 routed profiles, 20 404s with their error sub-request's profile: 100, none dropped.
    t.is(sum(after, 'stored'), 100);
    t.is(sum(after, 'dropped') + sum(after, 'notProfiled'), 0);

    const announced = (): Set<string> => new Set(live.messages.flatMap((message) => (JSON.parse(message) as { token: string }[]).map((summary) => summary.token)));
    await live.waitFor(() => tokens.every((token) => announced().has(token)), 10_000);
    t.deepEqual(tokens.filter((token) => !announced().has(token)), []);
    live.close();

    // Every profile is readable, whichever worker wrote it and whichever worker serves the panel.
    const redis = new Redis(REDIS_URL);
    try {
      const stored = await Promise.all(tokens.map((token) => redis.exists(`${server.prefix}profile:${token}`)));
      t.deepEqual(stored, tokens.map(() => 1));
    } finally {
      redis.disconnect();
    }
    const panels = await Promise.all(tokens.slice(0, 10).map((token) => httpRequest(server.port, { path: `/_profiler/${token}`, headers: { accept: 'application/json' } })));
    t.deepEqual(panels.map((res) => res.status), panels.map(() => 200));

    const page = await httpRequest(server.port, { path: '/_profiler/status' });
    t.regex(page.body, /<h3>Workers<\/h3>/);
    t.regex(page.body, /<tr data-worker="1"[^>]*>.*<td data-counter="restarts">0<\/td>/);
    t.regex(page.body, /<tr data-worker="2"[^>]*>.*<td data-counter="restarts">0<\/td>/);
  } finally {
    await server.close();
  }
});

test.serial('WORKERS=2: SIGTERM under load finishes every accepted request, stores every profile and exits 0', async (t) => {
  const server = await startWorkers();
  const answered: HttpResult[] = [];
  const refused: string[] = [];
  let stopped = false;
  const load = async (): Promise<void> => {
    while (!stopped) {
      try {
        answered.push(await httpRequest(server.port, { path: '/hello/anna' }));
      } catch (error) {
        // After SIGTERM the listen sockets close: a new connection is refused, never half-answered.
        refused.push(error instanceof Error ? error.message : String(error));
        return;
      }
    }
  };
  try {
    const loops = Array.from({ length: 8 }, load);
    // Under load before the stop: enough requests answered, however fast this machine serves them.
    for (const start = Date.now(); answered.length <= 50 && Date.now() - start < 30_000; ) await new Promise((resolve) => setTimeout(resolve, 50));
    const slow = [httpRequest(server.port, { path: '/slow?ms=800' }), httpRequest(server.port, { path: '/slow?ms=800' })];
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    const slowAnswers = await Promise.all(slow);
    t.deepEqual(slowAnswers.map((res) => res.status), [200, 200]);
    t.is(await server.exited, 0);
    stopped = true;
    await Promise.all(loops);

    answered.push(...slowAnswers);
    t.true(answered.length > 50, `only ${answered.length} requests were answered before the stop`);
    t.deepEqual(new Set(answered.map((res) => res.status)), new Set([200]));
    for (const message of refused) t.regex(message, /ECONNREFUSED|ECONNRESET|socket hang up/);
    const redis = new Redis(REDIS_URL);
    try {
      const tokens = answered.map(tokenOf);
      const missing: string[] = [];
      const exists = await Promise.all(tokens.map((token) => redis.exists(`${server.prefix}profile:${token}`)));
      exists.forEach((found, i) => {
        if (found !== 1) missing.push(tokens[i] ?? '');
      });
      t.deepEqual(missing, [], `${missing.length} of ${tokens.length} answered requests have no stored profile`);
    } finally {
      redis.disconnect();
    }
    t.regex(server.output(), /SIGTERM received: stopping 2 workers/);
    t.is(server.output().match(/"worker":\d,[^\n]*SIGTERM received: finishing in-flight requests/g)?.length, 2);
  } finally {
    stopped = true;
    await server.close();
  }
});

test.serial('WORKERS=2: a worker killed with SIGKILL is logged and restarted in its slot, later each time it dies again soon; the other keeps serving', async (t) => {
  // A restarted worker loads its sources again: on a busy machine that takes a while.
  t.timeout(150_000);
  const restarted = 40_000;
  const server = await startWorkers();
  try {
    const before = await statusWhen(server.port, (s) => s.workers.length === 2);
    const victim = before.workers[1];
    if (victim === undefined) throw new Error('No second worker.');
    const firstKill = Date.now();
    process.kill(victim.pid, 'SIGKILL');
    await gone(victim.pid);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The survivor takes every new connection meanwhile.
    const during = await requests(server.port, '/hello/anna', 16);
    t.deepEqual(new Set(during.map((res) => res.status)), new Set([200]));

    const after = await statusWhen(server.port, (s) => s.workers[1]?.restarts === 1 && s.workers[1].counters !== null, restarted);
    t.not(after.workers[1]?.pid, victim.pid);
    t.is(after.workers[0]?.pid, before.workers[0]?.pid);
    t.is(after.workers[0]?.restarts, 0);
    t.regex(server.output(), new RegExp(`Worker ${victim.id} \\(pid ${victim.pid}\\) ended \\(signal SIGKILL\\); restarting it in 100 ms\\.`));
    t.regex(server.output(), new RegExp(`Worker ${victim.id} is serving again`));
    // The new process takes connections too.
    await requests(server.port, '/hello/anna', 32);
    const served = await statusWhen(server.port, (s) => (s.workers[1]?.counters?.requests ?? 0) > 0, restarted);
    t.true((served.workers[1]?.counters?.requests ?? 0) > 0);

    // Dying again within 10 s of its start: the next restart waits twice as long.
    const again = served.workers[1];
    if (again === undefined) throw new Error('No second worker.');
    const secondKill = Date.now();
    process.kill(again.pid, 'SIGKILL');
    const third = await statusWhen(server.port, (s) => s.workers[1]?.restarts === 2 && s.workers[1].counters !== null, restarted);
    t.not(third.workers[1]?.pid, again.pid);
    // The supervisor doubles the delay for a process that lived under 10 s after one that did too. On a busy
    // machine a worker compiling its sources may live longer before it is killed: the expected delay follows
    // from the start times the status gave, either one when a death fell within a second of the 10 s.
    const lived = (killedAt: number, startedAt: number | undefined): boolean | null => {
      const ms = killedAt - (startedAt ?? 0);
      return Math.abs(ms - 10_000) < 1_000 ? null : ms < 10_000;
    };
    const quick = [lived(firstKill, victim.startedAt), lived(secondKill, again.startedAt)];
    const delays = new Set<number>();
    for (const first of quick[0] === null ? [true, false] : [quick[0]]) {
      for (const second of quick[1] === null ? [true, false] : [quick[1]]) delays.add(second ? 100 * 2 ** Math.max(0, (first ? 2 : 1) - 1) : 100);
    }
    t.regex(server.output(), new RegExp(`Worker ${victim.id} \\(pid ${again.pid}\\) ended \\(signal SIGKILL\\); restarting it in (${[...delays].join('|')}) ms\\.`));
  } finally {
    await server.close();
  }
});

test.serial('WORKERS=2: a worker that cannot start stops the whole start with its reason, said once', async (t) => {
  const { code, output } = await runServerToExit({ WORKERS: '2', REDIS_URL: 'redis://127.0.0.1:1' });
  t.is(code, 1);
  t.regex(output, /Loupe could not start: Cannot reach Redis at redis:\/\/127\.0\.0\.1:1\./);
  t.is(output.match(/Cannot reach Redis/g)?.length, 1);
});

test.serial('WORKERS=2: a port another process holds stops the start instead of being shared', async (t) => {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const port = (holder.address() as net.AddressInfo).port;
  try {
    const { code, output } = await runServerToExit({ WORKERS: '2', PORT: String(port) });
    t.is(code, 1);
    t.regex(output, new RegExp(`Loupe could not start: Cannot listen on 127\\.0\\.0\\.1:${port}: the address is in use or not available\\.`));
  } finally {
    holder.close();
  }
});
