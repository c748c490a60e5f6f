'use strict';
// The real application's kernel in process, without uWS: what one request costs in the kernel
// (synchronous part). Needs a Redis (REDIS_URL) and `npm run build`:
//   node bench/micro/kernel.js /hello/anna prod 30000
//   node bench/micro/kernel.js /config.yaml debug 5000
const { readConfig } = require('../../dist/src/config/config');
const { startApplication } = require('../../dist/src/app/start-application');

const [path = '/hello/anna', mode = 'prod', count = '30000'] = process.argv.slice(2);
const debug = mode === 'debug';

(async () => {
  const app = await startApplication(
    readConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0', APP_DEBUG: debug ? '1' : '0', APP_ENV: debug ? 'dev' : 'prod', APP_SECRET: 'micro-bench', REDIS_PREFIX: `loupe-micro:${process.pid}:`, PROFILER_MAX_PROFILES: '1000000' }),
  );
  const data = { method: 'GET', path, query: '', headers: { host: '127.0.0.1:8000', accept: '*/*' }, remoteAddress: '127.0.0.1', scheme: 'http', serverPort: 8000, body: null, bodyError: null };
  let written = 0;
  const connection = { write: () => (written++, true) };
  for (let i = 0; i < 5000; i++) app.kernel.handle(data, connection);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const runs = Number(count);
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) app.kernel.handle(data, connection);
  const us = Number(process.hrtime.bigint() - start) / runs / 1000;
  console.log(`${path} ${mode}: ${us.toFixed(1)} µs per request in the kernel (${written} responses written)`);
  if (app.profiler !== null) {
    await app.profiler.writer.whenIdle();
    await app.profiler.storage.purge();
  }
  const keys = await app.redis.keys(`loupe-micro:${process.pid}:*`);
  if (keys.length > 0) await app.redis.unlink(...keys);
  await app.close();
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
