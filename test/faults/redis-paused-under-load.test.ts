import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { spawnServer } from '../helpers/spawn-server';
import { startThrowawayRedis } from '../helpers/throwaway-redis';
import { jsonOf, timedGet, traffic } from './fault-probes';

const PAUSE_MS = 3_000;

/** What wrk measured: requests per second, latency quantiles, failures. */
interface WrkRun {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly socketErrors: number;
}

function toMs(value: string, unit: string): number {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? Number.NaN);
}

function parseWrk(output: string): WrkRun {
  const quantile = (q: string): number => {
    const match = new RegExp(`^\\s*${q}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(output);
    return match?.[1] === undefined || match[2] === undefined ? Number.NaN : toMs(match[1], match[2]);
  };
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requestsPerSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN),
    p50Ms: quantile('50'),
    p99Ms: quantile('99'),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: errors === null ? 0 : errors.slice(1).reduce((sum, count) => sum + Number(count), 0),
  };
}

/** wrk on loopback for `seconds` (at most 5); `whileRunning` starts once wrk does. */
async function wrk(url: string, seconds: number, whileRunning: () => Promise<unknown> = () => Promise.resolve()): Promise<WrkRun> {
  const child = spawn('wrk', ['-t2', '-c32', `-d${seconds}s`, '--latency', url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await whileRunning();
  await exited;
  return parseWrk(output);
}

/** A line of /proc/<pid>/status in MiB (VmRSS now, VmHWM the peak). */
function memoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kib ?? Number.NaN) / 1024;
}

test(`Redis paused ${PAUSE_MS / 1000} s under wrk load: no failed or stalled request, p99 within bounds, memory bounded`, async (t) => {
  // A throwaway Redis, a server and a few thousand requests: longer than AVA's idle timeout on a busy machine.
  t.timeout(90_000);
  if (spawnSync('wrk', ['--version']).error !== undefined) return t.fail('wrk is missing: apt-get install -y wrk (make test-tools installs it).');
  const redis = await startThrowawayRedis(6406);
  const server = await spawnServer({ REDIS_URL: redis.url });
  try {
    const pid = server.child.pid;
    if (pid === undefined) return t.fail('the server has no pid');
    const url = `http://127.0.0.1:${server.port}/hello/anna`;
    await traffic(server.port, 400);
    const calm = await wrk(url, 2);
    const rssBefore = memoryMiB(pid, 'VmRSS');
    const peakBefore = memoryMiB(pid, 'VmHWM');
    const paused = await wrk(url, 5, () => redis.admin.call('CLIENT', 'PAUSE', String(PAUSE_MS)));
    const peakDuring = memoryMiB(pid, 'VmHWM');
    await redis.admin.ping();
    const status = jsonOf(await timedGet(server.port, '/_profiler/status', { accept: 'application/json' }));
    t.log(`wrk without fault: ${calm.requestsPerSecond.toFixed(0)} req/s, p50 ${calm.p50Ms} ms, p99 ${calm.p99Ms} ms`);
    t.log(`wrk with Redis paused ${PAUSE_MS} ms: ${paused.requestsPerSecond.toFixed(0)} req/s, p50 ${paused.p50Ms} ms, p99 ${paused.p99Ms} ms, non-2xx ${paused.non2xx}, socket errors ${paused.socketErrors}`);
    t.log(`RSS ${rssBefore.toFixed(0)} MiB before (peak ${peakBefore.toFixed(0)}), peak ${peakDuring.toFixed(0)} MiB with the fault; stored ${String(status['stored'])}, dropped ${String(status['dropped'])}, not profiled ${String(status['notProfiled'])}`);

    t.is(paused.non2xx, 0, 'every request answered 200');
    t.is(paused.socketErrors, 0, 'no request failed or timed out (wrk gives up after 2 s)');
    t.true(paused.p99Ms < Math.max(calm.p99Ms * 3, 1_000), 'p99 stays within 3× the calm run (or under the 1 s command timeout)');
    t.true(peakDuring - rssBefore < 256, 'the queue of profiles waiting for Redis keeps memory bounded');
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await redis.stop();
  }
});
