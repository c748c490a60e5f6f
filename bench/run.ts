/**
 * `make bench`: raw uWebSockets.js, uWS running the bare request machine (the limit Loupe works
 * within), Fastify 5, Express 5, Fastify with OpenTelemetry tracing every request (spans exported
 * over OTLP/HTTP to a sink the bench starts), Loupe prod and Loupe debug (profiler storing every
 * trace in Redis), started side by side on this machine in a shuffled order, warmed up equally in
 * interleaved rounds, then measured interleaved (rounds rotate and reverse the order: see
 * lib/order.ts) on an unrouted and a routed path. Prints a table and writes it as JSON. "Loupe debug WORKERS=2" is
 * the same debug server as a supervisor of two worker processes: its CPU per request is the sum
 * of all three processes'.
 *
 * Each row also gives the server process's CPU time per request (from /proc): on a loaded machine
 * the throughput of every server drops, the CPU a request costs much less. Where a server's traces
 * go is read apart and left out of it, the same way for each: Redis for Loupe, the OTLP sink for
 * Fastify + OpenTelemetry ("store µs/req").
 *
 * Settings (environment): BENCH_SECONDS per measurement (5), BENCH_ROUNDS (3),
 * BENCH_CONNECTIONS (64), BENCH_SOAK_SECONDS (0: off; 300 for the memory check), REDIS_URL,
 * BENCH_SERVERS (comma-separated names or parts of names: only those servers, e.g. `fastify,loupe`;
 * `=name` for that name alone, e.g. `=loupe debug`),
 * BENCH_BASELINE (another checkout of Loupe, built: its prod and debug servers and its Fastify
 * plugin run in the same rounds as "Loupe prod (base)", "Loupe debug (base)" and "Fastify + Loupe
 * profiler (base)", for a before/after of a change),
 * BENCH_AA=1 (an A/A run: "Loupe prod" runs twice from the same build, as "Loupe prod A" and
 * "Loupe prod B", whose ratio shows what the bench's own bias and noise are; it should be 1.00 ± 0.05),
 * BENCH_SEED (the start order's seed, printed by every run, to start in the same order again).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTool, measure, type LoadResult, type LoadOptions } from './lib/load';
import { roundOrder, shuffled } from './lib/order';
import { cpuMicrosOf, freePort, getJson, memoryOf, startServer, stopServer, type BenchServer } from './lib/processes';
import { median, printReport, type ProfileCheck, type Report, type Row, type SpanCheck } from './lib/report';
import { soak } from './lib/soak';
// The cluster the test suite starts (ports 6420–6425): the bench needs the same one.
import { startThrowawayCluster, type ThrowawayCluster } from '../test/helpers/throwaway-cluster';

const ROOT = path.resolve(__dirname, '..');
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 64);
const SOAK_SECONDS = Number(process.env['BENCH_SOAK_SECONDS'] ?? 0);
const SELECTED = (process.env['BENCH_SERVERS'] ?? '').split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
const BASELINE = process.env['BENCH_BASELINE'];
const AA = process.env['BENCH_AA'] === '1';
const SEED = Number(process.env['BENCH_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
/** Warm-up rounds, each server loaded on each path for WARM_SECONDS per round, in the rounds' order. */
const WARM_ROUNDS = 2;
const WARM_SECONDS = 1;
/** The peer that exports spans to the sink. */
const OTEL_ROW = 'Fastify + OpenTelemetry';
/** How long the sink must get nothing before its count is final: more than the BatchSpanProcessor's 5 s delay. */
const SINK_QUIET_MS = 6_000;
/** Loupe debug against a Redis Cluster started for the run. */
const CLUSTER_ROW = 'Loupe debug cluster';
const PATHS = { unrouted: '/config.yaml', routed: '/hello/anna' } as const;
/** Profiles Loupe's kernel stores per request: a 404 is rendered by a sub-request with its own profile. */
const PROFILES_PER_REQUEST = { unrouted: 2, routed: 1 } as const;
/** The peers profiled by Loupe's adapters: one profile per request, 404s included (the framework renders them). */
const ADAPTER_ROWS = ['Fastify + Loupe profiler', 'Express 5 + Loupe profiler'] as const;
const PROFILES_PER_ADAPTER_REQUEST = { unrouted: 1, routed: 1 } as const;
/** Spans the traced peer exports per request: the http server's and @fastify/otel's request span; a routed one adds its handler's. */
const SPANS_PER_REQUEST = { unrouted: 2, routed: 3 } as const;

/** The counters of `GET /_profiler/status` (JSON); with WORKERS > 1 also every worker's. */
interface ProfilerStatus {
  readonly stored: number;
  readonly dropped: number;
  readonly notProfiled: number;
  readonly queued: number;
  readonly writerState: string;
}

type StatusJson = ProfilerStatus & { readonly workers?: readonly { readonly counters: Omit<ProfilerStatus, 'writerState'> & { readonly writerState: string | null } | null }[] };

/** How long a worker's counters may lag in the status: it reports every second, the supervisor passes them on every second. */
const WORKER_COUNTERS_LAG_MS = 2_500;


/** The server's counters: its own, or the sum of its workers'. */
async function profilerStatus(server: BenchServer): Promise<ProfilerStatus> {
  const body = (await getJson(server.port, '/_profiler/status')) as StatusJson;
  if (body.workers === undefined) return body;
  const counters = body.workers.map((worker) => worker.counters);
  const total = (name: 'stored' | 'dropped' | 'notProfiled' | 'queued'): number => counters.reduce((sum, c) => sum + (c?.[name] ?? 0), 0);
  return {
    stored: total('stored'),
    dropped: total('dropped'),
    notProfiled: total('notProfiled'),
    queued: total('queued'),
    writerState: counters.every((c) => c?.writerState === 'idle') ? 'idle' : 'busy',
  };
}

/** The process id a Redis server reports, when that process runs on this machine, else undefined. */
async function localPidOf(redis: { info(section: string): Promise<string> }): Promise<number | undefined> {
  const pid = Number(/^process_id:(\d+)/m.exec(await redis.info('server'))?.[1]);
  return Number.isInteger(pid) && Number.isFinite(cpuMicrosOf(pid)) ? pid : undefined;
}

/**
 * The process of the Redis at REDIS_URL when it runs on this machine (its CPU per request is
 * what bounds profiling as workers are added).
 */
async function localRedisPids(): Promise<number[]> {
  const { connectRedis, closeRedis } = await import('../src/redis/connect-redis');
  const redis = await connectRedis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', 'loupe-bench');
  try {
    const pid = await localPidOf(redis);
    return pid === undefined ? [] : [pid];
  } finally {
    await closeRedis(redis);
  }
}

/** Whether redis-server and redis-cli are installed, to start the cluster of "Loupe debug cluster". */
function canStartCluster(): boolean {
  return ['redis-server', 'redis-cli'].every((tool) => spawnSync(tool, ['--version']).status === 0);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The OTLP sink's count of spans once nothing more arrives. */
async function settledSpans(sink: BenchServer): Promise<number> {
  const spans = async (): Promise<number> => ((await getJson(sink.port, '/stats')) as { spans: number }).spans;
  let last = await spans();
  for (let quietMs = 0; quietMs < SINK_QUIET_MS; ) {
    await sleep(500);
    const now = await spans();
    quietMs = now === last ? quietMs + 500 : 0;
    last = now;
  }
  return last;
}

/** Waits until the debug server's writers have stored everything queued (workers: and said so). */
async function settledStatus(server: BenchServer, workers: boolean): Promise<ProfilerStatus> {
  if (workers) await sleep(WORKER_COUNTERS_LAG_MS);
  for (let attempt = 0; attempt < 300; attempt++) {
    const status = await profilerStatus(server);
    if (status.queued === 0 && status.writerState === 'idle') {
      if (!workers) return status;
      // The counters lag: settled only once a read a lag later says the same.
      await sleep(WORKER_COUNTERS_LAG_MS);
      const again = await profilerStatus(server);
      if (again.stored === status.stored && again.queued === 0) return again;
      continue;
    }
    await sleep(100);
  }
  return profilerStatus(server);
}

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, 'dist', 'demo', 'main.js'))) throw new Error('No build: run `make bench` (it builds first) or `npm run build`.');
  const tool = loadTool();
  const redisPrefix = `loupe-bench:${process.pid}:`;
  const prod = { APP_ENV: 'prod', APP_DEBUG: '0', APP_SECRET: 'bench-secret' };
  // The demo's own source is demo/: an application's, whose copy of Loupe is in node_modules, whose frames get no source lines.
  const dev = { APP_ENV: 'dev', APP_DEBUG: '1', PROFILER_MAX_PROFILES: '200000', PROFILER_SOURCE_ROOT: path.join(ROOT, 'demo') };
  const demo = (root: string): string[] => {
    const main = path.join(root, 'dist', 'demo', 'main.js');
    if (!existsSync(main)) throw new Error(`No build at ${main}: run \`npm run build\` there.`);
    return [main];
  };
  // A line per request on a pipe the harness keeps reading: Loupe logs warnings only, as Fastify runs without its logger.
  const quiet = { LOG_LEVEL: 'warn' };
  // `=name` is that server alone ("=loupe debug" without its WORKERS=2 and cluster rows).
  const wanted = (name: string): boolean =>
    SELECTED.length === 0 || SELECTED.some((part) => (part.startsWith('=') ? name.toLowerCase() === part.slice(1) : name.toLowerCase().includes(part)));
  const peer = (file: string): string[] => [path.join(ROOT, 'bench', 'servers', file)];
  const adapterEnv = { REDIS_URL: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `${redisPrefix}adapters:`, PROFILER_MAX_PROFILES: '200000' };
  // The sink's URL is known once it listens: filled in before the servers start.
  const otelEnv: Record<string, string> = {};
  const loupeProd = AA
    ? [
        { name: 'Loupe prod A', args: demo(ROOT), env: { ...quiet, ...prod, REDIS_PREFIX: redisPrefix } },
        { name: 'Loupe prod B', args: demo(ROOT), env: { ...quiet, ...prod, REDIS_PREFIX: redisPrefix } },
      ]
    : [{ name: 'Loupe prod', args: demo(ROOT), env: { ...quiet, ...prod, REDIS_PREFIX: redisPrefix } }];
  const candidates: { name: string; args: string[]; env: Record<string, string> }[] = [
    { name: 'raw uWS', args: peer('raw-uws.js'), env: {} },
    { name: 'uWS + bare machine', args: peer('uws-bare-machine.js'), env: {} },
    { name: 'Fastify', args: peer('fastify.js'), env: {} },
    { name: 'Express 5', args: peer('express.js'), env: {} },
    { name: OTEL_ROW, args: peer('fastify-otel.js'), env: otelEnv },
    // The adapters store in Redis as Loupe debug does (without REDIS_URL they would keep profiles in memory).
    { name: ADAPTER_ROWS[0], args: peer('fastify-loupe.js'), env: { ...quiet, ...adapterEnv } },
    { name: ADAPTER_ROWS[1], args: peer('express-loupe.js'), env: { ...quiet, ...adapterEnv } },
    ...loupeProd,
    // What carrying the request context (currentRequest(), AsyncLocalStorage: async hooks on Node 20) costs prod.
    { name: 'Loupe prod REQUEST_CONTEXT=1', args: demo(ROOT), env: { ...quiet, ...prod, REQUEST_CONTEXT: '1', REDIS_PREFIX: redisPrefix } },
    { name: 'Loupe debug', args: demo(ROOT), env: { ...quiet, ...dev, REDIS_PREFIX: redisPrefix } },
    { name: 'Loupe debug WORKERS=2', args: demo(ROOT), env: { ...quiet, ...dev, WORKERS: '2', REDIS_PREFIX: `${redisPrefix}w2:` } },
  ];
  if (BASELINE !== undefined && BASELINE !== '') {
    const base = path.resolve(BASELINE);
    candidates.push({ name: 'Loupe prod (base)', args: demo(base), env: { ...quiet, ...prod, REDIS_PREFIX: `${redisPrefix}base:` } });
    candidates.push({ name: 'Loupe debug (base)', args: demo(base), env: { ...quiet, ...dev, REDIS_PREFIX: `${redisPrefix}base:` } });
    candidates.push({ name: `${ADAPTER_ROWS[0]} (base)`, args: peer('fastify-loupe.js'), env: { ...quiet, ...adapterEnv, LOUPE_BUILD: path.join(base, 'dist'), REDIS_PREFIX: `${redisPrefix}adapters-base:` } });
  }
  const servers: BenchServer[] = [];
  let sink: BenchServer | null = null;
  // Three masters with a replica each on this machine's loopback; its nodes' CPU is the row's Redis CPU.
  let cluster: ThrowawayCluster | null = null;
  const clusterPids: number[] = [];
  try {
    if (wanted(CLUSTER_ROW) && canStartCluster()) {
      cluster = await startThrowawayCluster();
      for (const port of cluster.ports) {
        const pid = await localPidOf(cluster.node(port));
        if (pid !== undefined) clusterPids.push(pid);
      }
      candidates.push({ name: CLUSTER_ROW, args: demo(ROOT), env: { ...quiet, ...dev, REDIS_URL: cluster.url, REDIS_PREFIX: 'loupe-bench:' } });
    } else if (wanted(CLUSTER_ROW)) console.log(`${CLUSTER_ROW}: left out, redis-server and redis-cli are needed to start a cluster (make test-tools).`);
    if (wanted(OTEL_ROW)) {
      sink = await startServer('OTLP sink', await freePort(), peer('otlp-sink.js'), {});
      otelEnv['OTLP_SINK_URL'] = `http://127.0.0.1:${sink.port}/v1/traces`;
    }
    // Started in a shuffled order; listed in the table in the order above.
    const startOrder = shuffled(
      candidates.filter(({ name }) => wanted(name)),
      SEED,
    );
    console.log(`Start order (BENCH_SEED=${SEED}): ${startOrder.map(({ name }) => name).join(', ')}.`);
    const started = new Map<string, BenchServer>();
    for (const { name, args, env } of startOrder) started.set(name, await startServer(name, await freePort(), args, env));
    for (const { name } of candidates) {
      const server = started.get(name);
      if (server !== undefined) servers.push(server);
    }
    const measured = startOrder.map(({ name }) => started.get(name)).filter((server): server is BenchServer => server !== undefined);
    const otel = started.get(OTEL_ROW);
    // Every request the traced peer answered, warm-up included: each must have its spans at the sink.
    let otelRequests = 0;
    let otelSpansExpected = 0;
    const load = async (server: BenchServer, kind: keyof typeof PATHS, options: Omit<LoadOptions, 'url'>): Promise<LoadResult> => {
      const result = await measure({ ...options, url: `http://127.0.0.1:${server.port}${PATHS[kind]}` });
      if (server === otel) {
        otelRequests += result.requests;
        otelSpansExpected += result.requests * SPANS_PER_REQUEST[kind];
      }
      return result;
    };
    const debug = servers.find((server) => server.name === 'Loupe debug');
    // Every server that profiles: each must store a profile for every request it answered.
    const isAdapter = (server: BenchServer): boolean => (ADAPTER_ROWS as readonly string[]).includes(server.name);
    const profiled = servers.filter((server) => server.name.startsWith('Loupe debug') || isAdapter(server));
    const isSupervisor = (server: BenchServer): boolean => server.name.includes('WORKERS=');
    console.log(`Load tool: ${tool}, ${CONNECTIONS} connections, ${SECONDS} s per measurement, ${ROUNDS} interleaved rounds.`);
    // Warmed equally and interleaved, as they are measured: none gets the JIT's or the caches' head start.
    for (let round = 1; round <= WARM_ROUNDS; round++) {
      for (const kind of Object.keys(PATHS) as (keyof typeof PATHS)[]) {
        for (const server of roundOrder(measured, round)) await load(server, kind, { seconds: WARM_SECONDS, connections: CONNECTIONS });
      }
    }
    const redisPids = await localRedisPids();
    // Where a server's traces go, read apart from the server: Redis (or the cluster's nodes) for Loupe, the sink for the traced peer.
    const storePids = (server: BenchServer): number[] => {
      if (server.name === CLUSTER_ROW) return clusterPids;
      if (server.name.startsWith('Loupe') || isAdapter(server)) return redisPids;
      if (server === otel && sink?.child.pid !== undefined) return [sink.child.pid];
      return [];
    };
    const storeCpu = (server: BenchServer): number => storePids(server).reduce((sum, pid) => sum + cpuMicrosOf(pid), 0);
    const samples = new Map<string, (LoadResult & { cpuUsPerRequest: number; storeUsPerRequest: number })[]>();
    const expectedProfiles = new Map<BenchServer, number>();
    const before = new Map<BenchServer, ProfilerStatus>();
    for (const server of profiled) before.set(server, await settledStatus(server, isSupervisor(server)));
    for (let round = 1; round <= ROUNDS; round++) {
      // A server measured right after another (whose writer may still be storing, whose Redis still
      // replicating) is not always the same one, nor always first or last.
      const order = roundOrder(measured, round);
      for (const kind of Object.keys(PATHS) as (keyof typeof PATHS)[]) {
        for (const server of order) {
          const cpuBefore = cpuMicrosOf(server.child.pid);
          const storeBefore = storeCpu(server);
          const done = await load(server, kind, { seconds: SECONDS, connections: CONNECTIONS });
          const result = {
            ...done,
            cpuUsPerRequest: (cpuMicrosOf(server.child.pid) - cpuBefore) / done.requests,
            storeUsPerRequest: storePids(server).length > 0 ? (storeCpu(server) - storeBefore) / done.requests : NaN,
          };
          samples.set(`${server.name}|${kind}`, [...(samples.get(`${server.name}|${kind}`) ?? []), result]);
          if (profiled.includes(server)) expectedProfiles.set(server, (expectedProfiles.get(server) ?? 0) + result.requests * (isAdapter(server) ? PROFILES_PER_ADAPTER_REQUEST : PROFILES_PER_REQUEST)[kind]);
          process.stdout.write(
            `  round ${round} ${kind.padEnd(8)} ${server.name.padEnd(26)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s ${result.cpuUsPerRequest.toFixed(1).padStart(7)} µs CPU\n`,
          );
        }
      }
    }
    const profiles: ProfileCheck[] = [];
    for (const server of profiled) {
      const start = before.get(server);
      const end = await settledStatus(server, isSupervisor(server));
      if (start === undefined) continue;
      const stored = end.stored - start.stored;
      const expectedAtLeast = expectedProfiles.get(server) ?? 0;
      const dropped = end.dropped - start.dropped;
      const notProfiled = end.notProfiled - start.notProfiled;
      profiles.push({ server: server.name, expectedAtLeast, stored, dropped, notProfiled, complete: stored >= expectedAtLeast && dropped === 0 && notProfiled === 0 });
    }
    const rows: Row[] = [];
    for (const server of servers) {
      for (const kind of Object.keys(PATHS) as (keyof typeof PATHS)[]) {
        const results = samples.get(`${server.name}|${kind}`) ?? [];
        rows.push({
          server: server.name,
          path: kind,
          requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
          cpuUsPerRequest: median(results.map((r) => r.cpuUsPerRequest)),
          cpuUsPerRound: results.map((r) => r.cpuUsPerRequest),
          storeUsPerRequest: median(results.map((r) => r.storeUsPerRequest)),
          p50Ms: median(results.map((r) => r.p50Ms)),
          p99Ms: median(results.map((r) => r.p99Ms)),
          peakRssMiB: memoryOf(server.child.pid).peak,
          errors: results.reduce((sum, r) => sum + r.errors, 0),
        });
      }
    }
    let spans: SpanCheck | null = null;
    if (otel !== undefined && sink !== null) {
      // Stopped once its peak RSS is read: its BatchSpanProcessor exports what it still holds as it shuts down.
      await stopServer(otel);
      const received = await settledSpans(sink);
      spans = { server: OTEL_ROW, requests: otelRequests, expectedAtLeast: otelSpansExpected, spans: received, complete: received >= otelSpansExpected };
    }
    const report: Report = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, Node ${process.versions.node}`,
      tool,
      seconds: SECONDS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      rows,
      profiles,
      spans,
      seed: SEED,
      startOrder: startOrder.map(({ name }) => name),
      soak: SOAK_SECONDS > 0 && debug !== undefined ? await soak(debug, SOAK_SECONDS, CONNECTIONS) : null,
    };
    printReport(report);
    const out = path.join(ROOT, '.bench');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`\nWritten to .bench/latest.json`);
    if (report.profiles.some((check) => !check.complete)) process.exitCode = 1;
  } finally {
    await Promise.all([...servers, ...(sink === null ? [] : [sink])].map((server) => stopServer(server)));
    await cluster?.stop();
    const { connectRedis } = await import('../src/redis/connect-redis');
    const redis = await connectRedis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', 'loupe-bench');
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 10_000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
