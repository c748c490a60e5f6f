'use strict';
// What capturing an application's I/O costs per captured call: a route that sends 10 Redis GETs
// through the application's own ioredis client and 10 SQL queries through pg, run in process
// (inject, no uWS) with the profiler on, once capturing (PROFILER_CAPTURE default) and once not
// (PROFILER_CAPTURE=none), in child processes taking turns. The difference in CPU per request,
// divided by the 20 calls, is the CPU one captured call costs (its entry, origin stack, span,
// and its share of collecting, redacting and storing the profile). Needs Redis, PostgreSQL
// (127.0.0.1:5432, database test) and `npm run build`:
//   node bench/micro/app-io.js [requests per round = 2000] [rounds = 4]
// APP_IO_THROUGH=function makes the calls from functions of the application's that the route
// awaits (a repository's), so that every call keeps a stack of two frames of the application's.
const { spawnSync } = require('node:child_process');
const { removeKeys } = require('./remove-keys');

const CALLS = 10;

async function child(mode, runs) {
  const { createLoupe, createLogger, readConfig, LoupeResponse } = require('../../dist/src');
  // The benchmark owns its process: tuned as serve() tunes one (createLoupe() and inject() leave it alone).
  require('../../dist/src/server/tune-process').tuneProcess();
  const { default: Redis } = require('ioredis');
  const pg = require('pg');
  const redis = new Redis(process.env.REDIS_URL || 'redis://127.0.0.1:6379');
  const pool = new pg.Pool({ host: '127.0.0.1', user: 'postgres', database: 'test', max: 2 });
  const prefix = `loupe-micro-io:${process.pid}:`;
  const readKey = async (i) => redis.get(`${prefix}k${i}`);
  const readRow = async (i) => pool.query('SELECT $1::int AS n', [i]);
  const app = createLoupe({
    routes: [
      {
        name: 'io',
        path: '/io',
        methods: ['GET'],
        controller: {
          name: 'io',
          handle: process.env.APP_IO_THROUGH === 'function'
            ? async () => {
                for (let i = 0; i < CALLS; i++) await readKey(i);
                for (let i = 0; i < CALLS; i++) await readRow(i);
                return LoupeResponse.json({ ok: true });
              }
            : async () => {
                for (let i = 0; i < CALLS; i++) await redis.get(`${prefix}k${i}`);
                for (let i = 0; i < CALLS; i++) await pool.query('SELECT $1::int AS n', [i]);
                return LoupeResponse.json({ ok: true });
              },
        },
      },
    ],
    config: readConfig({ ...process.env, APP_ENV: 'dev', APP_DEBUG: '1', HOST: '127.0.0.1', PORT: '0', REDIS_PREFIX: prefix, PROFILER_MAX_PROFILES: '1000000', PROFILER_CAPTURE: mode === 'on' ? 'http,redis,mysql2,pg' : 'none' }),
    logger: createLogger({ level: 'silent', format: 'json' }),
  });
  const request = { url: '/io', headers: { host: '127.0.0.1:8000', accept: '*/*' } };
  const warmup = Number(process.env.APP_IO_WARMUP ?? 300);
  for (let i = 0; i < warmup; i++) await app.inject(request);
  await app.profiler.writer.whenIdle();
  const cpu = process.cpuUsage();
  let profiled = 0;
  for (let i = 0; i < runs; i++) {
    const response = await app.inject(request);
    if (response.headers['x-debug-token'] !== undefined) profiled++;
    if (i % 128 === 127) await app.profiler.writer.whenIdle();
  }
  await app.profiler.writer.whenIdle();
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ cpuUs: (used.user + used.system) / runs, profiled }));
  await app.close();
  redis.disconnect();
  await pool.end();
  // The profiles and the writer's batch record.
  await removeKeys(prefix);
}

function parent() {
  const [runs = '2000', rounds = '4'] = process.argv.slice(2);
  const results = { on: [], off: [] };
  for (let round = 0; round < Number(rounds); round++) {
    for (const mode of round % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      const out = spawnSync(process.execPath, [__filename, '--child', mode, runs], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`${mode}: ${out.stderr}`);
      const { cpuUs, profiled } = JSON.parse(out.stdout);
      if (profiled !== Number(runs)) throw new Error(`${mode}: only ${profiled} of ${runs} requests were profiled.`);
      results[mode].push(cpuUs);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const on = median(results.on);
  const off = median(results.off);
  console.log(`CPU per request, ${2 * CALLS} calls each (median of ${rounds} rounds, ${runs} requests each):`);
  console.log(`  capture on:  ${on.toFixed(1)} µs  [${results.on.map((v) => v.toFixed(1)).join(', ')}]`);
  console.log(`  capture off: ${off.toFixed(1)} µs  [${results.off.map((v) => v.toFixed(1)).join(', ')}]`);
  console.log(`  per captured call: ${((on - off) / (2 * CALLS)).toFixed(1)} µs CPU`);
}

if (process.argv[2] === '--child') {
  child(process.argv[3], Number(process.argv[4])).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else parent();
