'use strict';
// Reads `perf script -F ip,sym` (call stacks, innermost frame first, a blank line after each) on
// stdin and prints each phase's share of the samples, and its µs per request given the CPU per
// request as the first argument. A sample is counted in the first phase of PHASES that any frame
// of its stack matches: the profiler's own steps first, then the garbage collector, then the
// socket writes, then the innermost JavaScript frame's owner. Used by perf-breakdown.sh.
const readline = require('node:readline');

const PHASES = [
  ['Profile written to Redis (ioredis, socket)', /ioredis|redis-profile-storage|#writeBatch/],
  ['Profile serialized (JSON, search row)', /JS:\S* ?enqueue \S*profile-writer/],
  ['Profile collected (collectors, redaction)', /collectProfile/],
  ['Response marked (token, Server-Timing, toolbar)', /markResponse|insertToolbar/],
  ['Request started (handle, headers)', /startRequest/],
  ['Profile writer machine (XState)', /node_modules\/xstate/],
  ['Garbage collection', /Scaveng|ConcurrentMarking|MarkCompact|Sweeper|Heap::CollectGarbage/],
  ['Response written (writev, kernel)', /writev|Writev/],
];

/** The phase of a stack none of PHASES matched: whose JavaScript ran innermost. */
function ownerOf(frames) {
  for (const frame of frames) {
    if (!frame.includes('JS:')) continue;
    if (/\/dist\/src\//.test(frame)) return 'Loupe, other (hooks, states, logger, errors)';
    const module = /node_modules\/(@[^/\s]+\/[^/\s]+|[^/\s]+)/.exec(frame);
    if (module !== null) return `${module[1]}`;
    return 'Node.js (http, streams, timers)';
  }
  return 'Native, outside JavaScript (parser, event loop, kernel)';
}

const counts = new Map();
let samples = 0;
let frames = [];
const count = () => {
  if (frames.length === 0) return;
  const stack = frames.join('\n');
  const phase = PHASES.find(([, pattern]) => pattern.test(stack))?.[0] ?? ownerOf(frames);
  counts.set(phase, (counts.get(phase) ?? 0) + 1);
  samples++;
  frames = [];
};
const us = Number(process.argv[2]);
readline
  .createInterface({ input: process.stdin })
  .on('line', (line) => (line.trim() === '' ? count() : frames.push(line)))
  .on('close', () => {
    count();
    if (samples === 0) {
      console.log('No samples: is perf allowed to read this process (perf_event_paranoid)?');
      return;
    }
    for (const [phase, n] of [...counts].sort((a, b) => b[1] - a[1])) {
      const share = n / samples;
      console.log(`${(100 * share).toFixed(1).padStart(5)} %  ${Number.isFinite(us) ? `${(share * us).toFixed(1).padStart(6)} µs` : ''}  ${phase}`);
    }
    console.log(`(${samples} samples)`);
  });
