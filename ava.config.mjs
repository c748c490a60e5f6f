// ava's settings. The test files that take longest (each waits on a build, npm, wrk, a paused
// Redis or a browser for half a minute or more) start first: four files run at a time, and a
// long one started last would keep the run going alone while the two cores sit idle.
const LONGEST_FIRST = [
  'test/package/pack.test.ts',
  'test/examples/examples-from-tarball.test.ts',
  'test/profiler/wrk-load.test.ts',
  'test/package/api-report.test.ts',
  'test/faults/redis-paused.test.ts',
  'test/package/source-maps.test.ts',
  'test/app/kernel-http.test.ts',
  'test/browser/layout.test.ts',
  'test/server/workers.test.ts',
  'test/cluster/redis-cluster.test.ts',
  'test/package/node-24.test.ts',
  'test/cli/debug-listeners.test.ts',
];

/** Where `file` (an absolute path) stands in LONGEST_FIRST, or after all of them. */
function rank(file) {
  const index = LONGEST_FIRST.findIndex((name) => file.endsWith(`/${name}`));
  return index === -1 ? LONGEST_FIRST.length : index;
}

export default {
  extensions: ['ts'],
  require: ['./test/helpers/register-typescript.js'],
  files: ['test/**/*.test.ts'],
  timeout: '60s',
  workerThreads: false,
  // The suite waits on Redis, servers and child processes much of the time: on two cores, four
  // files at a time keep both busy.
  concurrency: 4,
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b, [], { numeric: true }),
};
