'use strict';
// What capturing one SQL query costs, pg's wrapped Client.prototype.query against postgres.js'
// trapped Query prototype: a route that sends 10 queries through one driver, run in process
// (inject, no uWS) with the profiler on, once capturing that driver and once not
// (PROFILER_CAPTURE=http), in child processes taking turns. The difference in CPU per request,
// divided by the 10 queries, is the CPU one captured query costs (its entry, origin stack, span,
// and its share of collecting, redacting and storing the profile). Needs Redis, PostgreSQL
// (127.0.0.1:5432, database test) and `npm run build`:
//   node bench/micro/app-io-sql-drivers.js [pg|postgres] [requests per round = 2000] [rounds = 4]
const { spawnSync } = require('node:child_process');

const CALLS = 10;

function client(driver) {
  const options = { host: '127.0.0.1', user: 'postgres', database: 'test', max: 2 };
  if (driver === 'pg') {
    const pool = new (require('pg').Pool)(options);
    return { query: (n) => pool.query('SELECT $1::int AS n', [n]), end: () => pool.end() };
  }
  const sql = require('postgres')(options);
  return { query: (n) => sql`SELECT ${n}::int AS n`, end: () => sql.end() };
}

async function child(driver, mode, runs) {
  const { createLoupe, createLogger, readConfig, LoupeResponse } = require('../../dist/src');
  // The benchmark owns its process: tuned as serve() tunes one (createLoupe() and inject() leave it alone).
  require('../../dist/src/server/tune-process').tuneProcess();
  const db = client(driver);
  const prefix = `loupe-micro-sql:${process.pid}:`;
  const app = createLoupe({
    routes: [
      {
        name: 'sql',
        path: '/sql',
        methods: ['GET'],
        controller: {
          name: 'sql',
          handle: async () => {
            for (let i = 0; i < CALLS; i++) await db.query(i);
            return LoupeResponse.json({ ok: true });
          },
        },
      },
    ],
    config: readConfig({ ...process.env, APP_ENV: 'dev', APP_DEBUG: '1', HOST: '127.0.0.1', PORT: '0', REDIS_PREFIX: prefix, PROFILER_MAX_PROFILES: '1000000', PROFILER_CAPTURE: mode === 'on' ? driver : 'http' }),
    logger: createLogger({ level: 'silent', format: 'json' }),
  });
  const request = { url: '/sql', headers: { host: '127.0.0.1:8000', accept: '*/*' } };
  for (let i = 0; i < 300; i++) await app.inject(request);
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
  await app.profiler.storage.purge();
  await app.close();
  await db.end();
}

function parent() {
  const [driver = 'postgres', runs = '2000', rounds = '4'] = process.argv.slice(2);
  if (driver !== 'pg' && driver !== 'postgres') throw new Error(`A driver is pg or postgres, not ${driver}.`);
  const results = { on: [], off: [] };
  for (let round = 0; round < Number(rounds); round++) {
    for (const mode of round % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      const out = spawnSync(process.execPath, [__filename, '--child', driver, mode, runs], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`${mode}: ${out.stderr}`);
      const { cpuUs, profiled } = JSON.parse(out.stdout);
      if (profiled !== Number(runs)) throw new Error(`${mode}: only ${profiled} of ${runs} requests were profiled.`);
      results[mode].push(cpuUs);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const on = median(results.on);
  const off = median(results.off);
  console.log(`${driver}: CPU per request, ${CALLS} queries each (median of ${rounds} rounds, ${runs} requests each):`);
  console.log(`  capture on:  ${on.toFixed(1)} µs  [${results.on.map((v) => v.toFixed(1)).join(', ')}]`);
  console.log(`  capture off: ${off.toFixed(1)} µs  [${results.off.map((v) => v.toFixed(1)).join(', ')}]`);
  console.log(`  per captured query: ${((on - off) / CALLS).toFixed(1)} µs CPU`);
}

if (process.argv[2] === '--child') {
  child(process.argv[3], process.argv[4], Number(process.argv[5])).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else {
  parent();
}
