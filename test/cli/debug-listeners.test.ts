import test from 'ava';
import { useTestRedis } from '../helpers/test-redis';
import { runLoupe } from './run-loupe';

// The commands start the profiler, whose token allocator writes under the prefix: deleted after the file's tests.
const redisForTests = useTestRedis(test, 'loupe-test-debug-listeners');
const env = (): Record<string, string> => ({ REDIS_PREFIX: redisForTests.prefix(), APP_ENV: 'test' });

test('debug:listeners --app prints the demo application\'s listeners of a phase in the order they run', async (t) => {
  const run = await runLoupe(['debug:listeners', '--app', 'demo/demo-app.ts', '--phase', 'kernel.request'], env());
  t.is(run.code, 0, run.stderr);
  t.regex(run.stdout, /^Registered listeners for "kernel\.request"\n=+\n/);
  const rows = run.stdout.split('\n').filter((line) => line.startsWith('#')).map((line) => line.split(/\s+/));
  t.deepEqual(
    rows.map(([order, name, priority]) => `${order} ${name} ${priority}`),
    ['#1 ProfilerListener 4096', '#2 ValidateRequestListener 256', '#3 SessionListener 128', '#4 LocaleListener 100', '#5 RouterListener 32', '#6 ProfilerAccessListener 31', '#7 LocaleListener 16', '#8 RememberMeListener 9', '#9 Firewall 8'],
  );
});

test('debug:listeners without --app lists Loupe\'s defaults for every phase; prod has no profiler and works without APP_SECRET', async (t) => {
  const run = await runLoupe(['debug:listeners'], { ...env(), APP_ENV: 'prod' });
  t.is(run.code, 0, run.stderr);
  for (const phase of ['kernel.request', 'kernel.view', 'kernel.response', 'kernel.exception', 'kernel.finish_request']) t.true(run.stdout.includes(`"${phase}"`), phase);
  t.false(run.stdout.includes('ProfilerListener'));
  t.false(run.stdout.includes('Firewall'));
  t.regex(run.stdout, /#1 +ResponseListener +0/);
});

test('debug:listeners names an unknown phase and a module that exports no application', async (t) => {
  const phase = await runLoupe(['debug:listeners', '--phase', 'kernel.nope'], env());
  t.is(phase.code, 1);
  t.regex(phase.stderr, /No listener is registered for "kernel\.nope"/);
  const module = await runLoupe(['debug:listeners', '--app', 'demo/routes.ts'], env());
  t.is(module.code, 1);
  t.regex(module.stderr, /exports no Loupe application/);
});

test('debug:listeners prints the phases in the order of the lifecycle, kernel.request first and kernel.terminate last', async (t) => {
  const run = await runLoupe(['debug:listeners', '--app', 'demo/demo-app.ts'], env());
  t.is(run.code, 0, run.stderr);
  const phases = [...run.stdout.matchAll(/^Registered listeners for "([^"]+)"$/gm)].map((match) => match[1]);
  const lifecycle = ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'kernel.view', 'kernel.response', 'kernel.finish_request', 'kernel.exception', 'kernel.terminate'];
  t.deepEqual(phases, lifecycle.filter((phase) => phases.includes(phase)));
  t.is(phases[0], 'kernel.request');
  t.is(phases.at(-1), 'kernel.terminate');
});
