'use strict';
// The demo application's kernel in process, without uWS: what one request costs in the kernel
// (for a synchronous route: the kernel's work, plus the promise inject() resolves; with debug, its
// profiles collected, serialized and stored too). Needs a Redis (REDIS_URL) and
// `npm run build`:
//   node bench/micro/kernel.js /hello/anna prod 30000
//   node bench/micro/kernel.js /config.yaml debug 5000
// KERNEL_WARMUP (default 5000) sets how many requests warm the kernel up before the measured ones.
// LOG_LEVEL (default silent) logs as the server does, JSON lines on standard output (`warn`: a line
// per 404, as `make bench` runs Loupe); the figures go to standard error.
const { createLogger, readConfig } = require('../../dist/src');
const { createDemoApp } = require('../../dist/demo/demo-app');
const { removeKeys } = require('./remove-keys');

const [path = '/hello/anna', mode = 'prod', count = '30000'] = process.argv.slice(2);
const debug = mode === 'debug';

(async () => {
  const prefix = `loupe-micro:${process.pid}:`;
  const app = createDemoApp(
    readConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0', APP_DEBUG: debug ? '1' : '0', APP_ENV: debug ? 'dev' : 'prod', APP_SECRET: 'micro-bench', REDIS_PREFIX: prefix, PROFILER_MAX_PROFILES: '1000000' }),
    createLogger({ level: process.env.LOG_LEVEL || 'silent', format: 'json' }),
  );
  // This script owns its process, as serve() would: the same tuning (V8's pretenuring off), which
  // createLoupe() and inject() leave to the process's owner.
  require('../../dist/src/server/tune-process').tuneProcess();
  const request = { url: path, headers: { host: '127.0.0.1:8000', accept: '*/*' } };
  // With debug, the writer stores profiles (and the token allocator reserves tokens) over Redis,
  // which a loop of resolved promises never lets answer: without a pause every BATCH requests the
  // tokens run out after one block and the requests measured are not profiled at all. The pause
  // waits for Redis (wall time, not CPU); the writer's serializing is this process's CPU, counted.
  const BATCH = 256;
  const settle = async (i) => {
    if (app.profiler !== null && i % BATCH === BATCH - 1) await app.profiler.writer.whenIdle();
  };
  const warmup = Number(process.env.KERNEL_WARMUP ?? 5000);
  for (let i = 0; i < warmup; i++) {
    await app.inject(request);
    await settle(i);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const runs = Number(count);
  let answered = 0;
  let profiled = 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  // One after the other: a synchronous route answers within inject's call, so this is the
  // kernel's cost plus one resolved promise per request.
  for (let i = 0; i < runs; i++) {
    const response = await app.inject(request);
    if (response.status > 0) answered++;
    if (response.headers['x-debug-token'] !== undefined) profiled++;
    await settle(i);
  }
  if (app.profiler !== null) await app.profiler.writer.whenIdle();
  const us = Number(process.hrtime.bigint() - start) / runs / 1000;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / runs;
  const of = debug ? `, ${profiled} profiled and stored` : '';
  console.error(`${path} ${mode}: ${us.toFixed(1)} µs per request in the kernel, ${cpuUs.toFixed(1)} µs CPU (${answered} answered${of})`);
  if (app.profiler !== null) {
    await app.profiler.writer.whenIdle();
    await app.profiler.storage.purge();
  }
  await app.close();
  await removeKeys(prefix);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
