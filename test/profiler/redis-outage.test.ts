import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../helpers/test-server';

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A throwaway redis-server that keeps nothing on disk. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  child.on('error', () => undefined);
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('redis-server did not start: install it (apt-get install -y redis-server) — the test needs a throwaway one.');
}

interface Sample {
  readonly ms: number;
  readonly status: number;
  readonly token: string | undefined;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

function timedGet(port: number, path: string): Promise<Sample> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => {
          const token = res.headers['x-debug-token'];
          resolve({ ms: performance.now() - start, status: res.statusCode ?? 0, token: typeof token === 'string' ? token : undefined });
        });
      })
      .on('error', reject);
  });
}

/** Sends `count` requests, 8 at a time. */
async function traffic(port: number, count: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  for (let i = 0; i < count; i += 8) samples.push(...(await Promise.all(Array.from({ length: 8 }, () => timedGet(port, '/hello/anna')))));
  return samples;
}

const percentile = (samples: readonly Sample[], p: number): number => {
  const sorted = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
};

test('Redis stopped mid-traffic: requests keep their latency, drops are counted, storing resumes', async (t) => {
  const port = await freePort();
  let redis = await startRedis(port);
  const server = await startTestServer({ REDIS_URL: `redis://127.0.0.1:${port}` });
  try {
    const profiler = server.profiler;
    if (profiler === null) return t.fail('the profiler is on in debug');
    await traffic(server.port, 400);
    const before = await traffic(server.port, 800);
    t.true(before.every((sample) => sample.status === 200 && sample.token !== undefined));

    // Stop Redis while requests are in flight.
    const during = traffic(server.port, 1600);
    await new Promise((resolve) => setTimeout(resolve, 30));
    redis.kill('SIGKILL');
    const outage = await during;
    const afterStop = await traffic(server.port, 800);
    t.true([...outage, ...afterStop].every((sample) => sample.status === 200), 'every request is still answered');
    const stats = profiler.writer.stats;
    t.log(`p50 before ${percentile(before, 0.5).toFixed(2)} ms, during ${percentile(afterStop, 0.5).toFixed(2)} ms; p99 before ${percentile(before, 0.99).toFixed(2)} ms, during ${percentile(afterStop, 0.99).toFixed(2)} ms; dropped ${stats.dropped}, not profiled ${profiler.stats().notProfiled}`);
    // No request waits for Redis: no latency jump (generous bounds for a shared machine).
    t.true(percentile(afterStop, 0.5) < Math.max(percentile(before, 0.5) * 3, 5), 'median latency did not jump');
    t.true(Math.max(...[...outage, ...afterStop].map((sample) => sample.ms)) < 1_000, 'no request waited for a Redis timeout');
    t.true(profiler.stats().notProfiled + stats.dropped > 0, 'the drop counters rose');
    t.true(afterStop.every((sample) => sample.token === undefined), 'no token is handed out for a profile that cannot be stored');

    // Redis comes back (empty): the writer reconnects by itself and storing resumes.
    redis = await startRedis(port);
    let stored = false;
    for (let attempt = 0; attempt < 60 && !stored; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const sample = await timedGet(server.port, '/hello/anna');
      if (sample.token === undefined) continue;
      await profiler.writer.whenIdle();
      stored = (await profiler.storage.read(sample.token)).kind === 'found';
    }
    t.true(stored, 'a profile is stored again once Redis is back');
  } finally {
    agent.destroy();
    await server.close().catch(() => undefined);
    redis.kill('SIGKILL');
  }
});
