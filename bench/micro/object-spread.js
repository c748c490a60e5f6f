'use strict';
// What building an object costs, pattern by pattern, on the Node that runs this: on Node 20.20 a
// literal that spreads an object and then defines more properties (`{ ...a, x }`, the conditional
// `{ ...(c ? {} : { x }), y }`) costs microseconds where Node 22 and 24 take tens of nanoseconds;
// Object.assign or setting fields afterwards stays cheap on all three. Each pattern runs in a
// process of its own (its inline caches are its own):
//   node bench/micro/object-spread.js [calls = 300000]
const { spawnSync } = require('node:child_process');

const PATTERNS = {
  'literal { a, b }': () => {
    const p = { token: 'abc', method: 'GET' };
    return () => ({ token: p.token, method: p.method, x: 1 });
  },
  '{ ...p }': () => {
    const p = { token: 'abc', method: 'GET' };
    return () => ({ ...p });
  },
  '{ ...p, x }': () => {
    const p = { token: 'abc', method: 'GET' };
    return () => ({ ...p, x: 1 });
  },
  '{ ...(c ? {} : { x }), y }': () => {
    const io = { queries: 0 };
    return () => ({ ...(io.queries === null ? {} : { queries: io.queries }), token: 'abc' });
  },
  '{ x, ...p }': () => {
    const p = { token: 'abc', method: 'GET' };
    return () => ({ x: 1, ...p });
  },
  'Object.assign(make(), { x })': () => {
    const make = () => ({ token: 'abc', method: 'GET' });
    return () => Object.assign(make(), { x: 1 });
  },
  'o = make(); o.x = …': () => {
    const make = () => ({ token: 'abc', method: 'GET' });
    return () => {
      const o = make();
      o.x = 1;
      return o;
    };
  },
};

const [pattern, callsArg] = process.argv.slice(2);
if (pattern !== undefined && pattern in PATTERNS) {
  const calls = Number(callsArg);
  const fn = PATTERNS[pattern]();
  for (let i = 0; i < 10_000; i++) fn();
  const start = process.hrtime.bigint();
  let kept;
  for (let i = 0; i < calls; i++) kept = fn();
  const ns = Number(process.hrtime.bigint() - start) / calls;
  process.stdout.write(`${ns.toFixed(1)} ${typeof kept}\n`);
} else {
  const calls = Number(process.argv[2] ?? 300_000);
  console.log(`Node ${process.versions.node}, ${calls} calls a pattern`);
  for (const name of Object.keys(PATTERNS)) {
    const run = spawnSync(process.execPath, [__filename, name, String(calls)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    console.log(`${name.padEnd(30)} ${run.stdout.split(' ')[0].padStart(9)} ns`);
  }
}
