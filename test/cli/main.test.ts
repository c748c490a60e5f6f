import test from 'ava';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { runLoupe } from './run-loupe';

/** A local port nothing listens on: where a Redis is not. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const USAGE = /^Usage: loupe <command> \[flags\]\n/;

for (const args of [[], ['help'], ['--help'], ['-h']]) {
  test(`loupe ${args.join(' ') || '(no arguments)'} prints the usage with every command and flag`, async (t) => {
    const run = await runLoupe(args);
    t.is(run.code, 0, run.stderr);
    t.regex(run.stdout, USAGE);
    for (const word of ['profiler:list', 'profiler:show', 'profiler:purge', '--redis-url', '--prefix']) t.true(run.stdout.includes(word), word);
    // Every command on a line of its own, with a one-line description.
    for (const command of ['profiler:list', 'profiler:show', 'profiler:purge', 'debug:listeners', 'help', '--version']) {
      t.regex(run.stdout, new RegExp(`^  ${command} +\\S.*$`, 'm'), command);
    }
    t.is(run.stderr, '');
  });
}

const VERSION = (JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

for (const flag of ['--version', '-v']) {
  test(`loupe ${flag} prints the version of the package`, async (t) => {
    const run = await runLoupe([flag]);
    t.is(run.code, 0, run.stderr);
    t.is(run.stdout, `loupe ${VERSION}\n`);
    t.is(run.stderr, '');
  });
}

test('--version with anything else is a usage error', async (t) => {
  const run = await runLoupe(['--version', '--json']);
  t.is(run.code, 2);
  t.regex(run.stderr, /^No command given\./);
});

test('loupe help COMMAND and COMMAND --help print that command\'s flags', async (t) => {
  const viaHelp = await runLoupe(['help', 'profiler:list']);
  t.is(viaHelp.code, 0);
  t.regex(viaHelp.stdout, /^Usage: loupe profiler:list/);
  for (const flag of ['--limit', '--method', '--status', '--url', '--ip', '--json']) t.true(viaHelp.stdout.includes(flag), flag);
  const viaFlag = await runLoupe(['profiler:list', '--help']);
  t.is(viaFlag.stdout, viaHelp.stdout);
});

test('an unknown command is a usage error (exit code 2)', async (t) => {
  const run = await runLoupe(['profiler:nope']);
  t.is(run.code, 2);
  t.is(run.stdout, '');
  t.true(run.stderr.startsWith('Unknown command "profiler:nope".\n'));
  t.regex(run.stderr, /Usage: loupe <command>/);
});

test('flags without a command are a usage error', async (t) => {
  const run = await runLoupe(['--json']);
  t.is(run.code, 2);
  t.regex(run.stderr, /^No command given\./);
});

test('an unknown flag is a usage error', async (t) => {
  const run = await runLoupe(['profiler:list', '--bogus']);
  t.is(run.code, 2);
  t.regex(run.stderr, /Unknown option '--bogus'/);
});

test('an unreachable Redis (--redis-url) fails with exit code 1 and says how to start one', async (t) => {
  const url = `redis://127.0.0.1:${await closedPort()}`;
  const run = await runLoupe(['profiler:list', '--redis-url', url]);
  t.is(run.code, 1);
  t.is(run.stdout, '');
  t.true(run.stderr.startsWith(`Cannot reach Redis at ${url}. Start one with \`docker compose up -d redis\``), run.stderr);
});

test('a Redis URL\'s password is never printed, from --redis-url or REDIS_URL, reachable or not', async (t) => {
  const port = await closedPort();
  const flag = await runLoupe(['profiler:list', '--redis-url', `redis://:S3CRET-PW@127.0.0.1:${port}`]);
  t.is(flag.code, 1);
  t.true(flag.stderr.startsWith(`Cannot reach Redis at redis://:***@127.0.0.1:${port}.`), flag.stderr);
  const cluster = await runLoupe(['profiler:list'], { REDIS_URL: `redis+cluster://user:S3CRET-PW@127.0.0.1:${port}/x` });
  t.is(cluster.code, 1);
  const invalid = await runLoupe(['profiler:list'], { REDIS_URL: 'http://:S3CRET-PW@127.0.0.1:6379' });
  t.is(invalid.stderr, 'Invalid REDIS_URL "http://:***@127.0.0.1:6379": expected a redis://, rediss:// or redis+cluster:// URL.\n');
  for (const run of [flag, cluster, invalid]) t.false(`${run.stdout}${run.stderr}`.includes('S3CRET-PW'), run.stderr);
});

test('REDIS_URL from the environment is where the CLI looks for Redis', async (t) => {
  const url = `redis://127.0.0.1:${await closedPort()}`;
  const run = await runLoupe(['profiler:show', 'latest'], { REDIS_URL: url });
  t.is(run.code, 1);
  t.true(run.stderr.startsWith(`Cannot reach Redis at ${url}.`), run.stderr);
});

test('an invalid REDIS_URL fails with the configuration message', async (t) => {
  const run = await runLoupe(['profiler:list'], { REDIS_URL: 'localhost:6379' });
  t.is(run.code, 1);
  t.is(run.stderr, 'Invalid REDIS_URL "localhost:6379": expected a redis://, rediss:// or redis+cluster:// URL.\n');
});
