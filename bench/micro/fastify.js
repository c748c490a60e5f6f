'use strict';
// A Fastify 5 application with Loupe's profiler (loupe-kernel/fastify) in process, driven by
// Fastify's own inject(): what the profiler adds to one request, with every profile collected,
// serialized and stored in Redis. Requests go 64 at a time, as a loaded server sees them, so the
// writer stores batches as it does under load. Needs a Redis (REDIS_URL) and `npm run build`:
//   node bench/micro/fastify.js /config.yaml on 20000
//   node bench/micro/fastify.js /hello/anna off 20000     # the same application without the profiler
// LOUPE_BUILD names another checkout's dist/ to measure it with this script (a before/after).
// FASTIFY_WARMUP (default 5000) sets how many requests warm up before the measured ones.
const path = require('node:path');
const { removeKeys } = require('./remove-keys');

const [url = '/config.yaml', profiler = 'on', count = '20000'] = process.argv.slice(2);
const build = process.env.LOUPE_BUILD || path.join(__dirname, '..', '..', 'dist');
const CONCURRENCY = 64;

(async () => {
  const prefix = `loupe-micro-fastify:${process.pid}:`;
  // No plugin timeout: under valgrind, starting the profiler takes longer than Fastify's 10 s.
  const app = require('fastify')({ logger: false, pluginTimeout: 0 });
  if (profiler === 'on') {
    const { loupe } = require(path.join(build, 'src', 'profiler', 'adapters', 'fastify'));
    const env = { ...process.env, REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix, PROFILER_MAX_PROFILES: '1000000' };
    await app.register(loupe, { enabled: true, env });
  }
  app.get('/hello/:name', async (request, reply) => {
    reply.type('text/html; charset=utf-8');
    return `<h1>Hello ${request.params.name}!</h1>`;
  });
  await app.ready();
  const request = { method: 'GET', url, headers: { host: '127.0.0.1:8000', accept: '*/*', 'user-agent': 'bench' } };
  let answered = 0;
  let profiled = 0;
  const round = async (requests) => {
    for (let done = 0; done < requests; done += CONCURRENCY) {
      const responses = await Promise.all(Array.from({ length: Math.min(CONCURRENCY, requests - done) }, () => app.inject(request)));
      for (const response of responses) {
        answered++;
        if (response.headers['x-debug-token'] !== undefined) profiled++;
      }
      // Redis answers the writer between groups, as it does between a loaded server's turns.
      if (app.loupe !== undefined && done % (4 * CONCURRENCY) === 0) await app.loupe.writer.whenIdle();
    }
    if (app.loupe !== undefined) await app.loupe.writer.whenIdle();
  };
  await round(Number(process.env.FASTIFY_WARMUP ?? 5000));
  answered = 0;
  profiled = 0;
  const runs = Number(count);
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await round(runs);
  const us = Number(process.hrtime.bigint() - start) / runs / 1000;
  const used = process.cpuUsage(cpu);
  console.error(`${url} profiler ${profiler}: ${us.toFixed(1)} µs per request, ${((used.user + used.system) / runs).toFixed(1)} µs CPU (${answered} answered, ${profiled} profiled and stored)`);
  await app.close();
  await removeKeys(prefix);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
