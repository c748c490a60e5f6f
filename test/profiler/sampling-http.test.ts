import test from 'ava';
import { setTimeout as sleep } from 'node:timers/promises';
import { httpRequest } from '../helpers/http-client';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;

test.before(async () => {
  server = await startTestServer({ PROFILER_SAMPLE: '0', PROFILER_SLOW_MS: '1000' });
});

test.after.always(async () => {
  await server?.close();
});

/** Waits, within 5 s, until `check` holds. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} within 5 s.`);
    await sleep(10);
  }
}

test('PROFILER_SAMPLE=0 profiles no ordinary request, but every 5xx and every request slower than PROFILER_SLOW_MS; the status page counts them', async (t) => {
  const { profiler } = server;
  if (profiler === null) return t.fail('no profiler');
  await until('The profile writer was not available', () => Promise.resolve(profiler.writer.isAvailable));
  // A first request runs cold code and may be slow itself: the counters are compared after it.
  await httpRequest(server.port, { path: '/hello/warm-up' });
  await profiler.writer.whenIdle();
  const before = profiler.stats().sampling;
  const hello = await httpRequest(server.port, { path: '/hello/anna' });
  const missing = await httpRequest(server.port, { path: '/config.yaml' });
  const boom = await httpRequest(server.port, { path: '/boom' });
  const slow = await httpRequest(server.port, { path: '/slow?ms=1100' });
  const quick = await httpRequest(server.port, { path: '/slow?ms=0' });
  t.deepEqual([hello.status, missing.status, boom.status, slow.status, quick.status], [200, 404, 500, 200, 200]);
  // Sampled out: no token, so no link to a profile that will never exist.
  for (const res of [hello, missing, quick]) {
    t.is(res.headers['x-debug-token'], undefined);
    t.is(res.headers['x-debug-token-link'], undefined);
  }
  const boomToken = String(boom.headers['x-debug-token']);
  const slowToken = String(slow.headers['x-debug-token']);
  t.regex(boomToken, /^[0-9a-f]{6}$/);
  t.regex(slowToken, /^[0-9a-f]{6}$/);
  // The 500, its error sub-request and the slow request: nothing else.
  const isStored = async (token: string): Promise<boolean> => (await profiler.storage.read(token)).kind === 'found';
  await until('The kept profiles were not stored', async () => (await isStored(boomToken)) && (await isStored(slowToken)));
  await profiler.writer.whenIdle();
  const stored = (await profiler.storage.find({})).filter((row) => !row.url.includes('warm-up'));
  t.is(stored.length, 3);
  t.deepEqual(stored.filter((row) => row.parent === null).map((row) => [row.token, row.statusCode]), [[slowToken, 200], [boomToken, 500]]);
  t.is(stored.find((row) => row.parent !== null)?.parent, boomToken);

  const status = await httpRequest(server.port, { path: '/_profiler/status', headers: { Accept: 'application/json' } });
  const counters = JSON.parse(status.body) as Record<string, unknown>;
  const expected = { sampledOut: before.sampledOut + 3, keptAsError: before.keptAsError + 1, keptAsSlow: before.keptAsSlow + 1 };
  t.like(counters, { sampleRate: 0, slowMs: 1000, notProfiled: 0, ...expected });
  const page = (await httpRequest(server.port, { path: '/_profiler/status' })).body;
  t.true(page.includes(`<dd data-counter="sampled-out">${expected.sampledOut}</dd>`));
  t.true(page.includes(`<dd data-counter="kept-as-error">${expected.keptAsError}</dd>`));
  t.true(page.includes(`<dd data-counter="kept-as-slow">${expected.keptAsSlow}</dd>`));
  return undefined;
});
