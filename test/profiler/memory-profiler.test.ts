import test from 'ava';
import { defaultCollectors } from '../../src/profiler/collect/collectors/default-collectors';
import { createMemoryProfiler } from '../../src/profiler/memory-profiler';
import { PROFILER_DEFAULTS } from '../../src/profiler/profiler-config';
import { parseLiveMessage } from '../../src/profiler/ui/live/live-summary';
import { DEFAULT_PANELS } from '../../src/profiler/ui/panel/panel-registry';

/*
 * The profiler on memory, without a server: tokens, the writer with no connection to wait for,
 * the storage, and the live feed in the same process.
 */

function memoryProfiler(maxProfiles = 1000) {
  return createMemoryProfiler({ ...PROFILER_DEFAULTS, maxProfiles }, { collectors: defaultCollectors({ secretCookies: new Set(), slowMs: 100 }), panels: DEFAULT_PANELS }, () => undefined);
}

/** One request through the core, as an adapter drives it: answers its token. */
function serve(profiler: ReturnType<typeof memoryProfiler>, path: string): string | null {
  const request = profiler.core.startRequest({ method: 'GET', url: path, headers: { host: '127.0.0.1:3000' }, remoteAddress: '127.0.0.1' });
  const token = request.respond(200);
  request.end({ status: 200, headers: { 'content-type': 'text/plain' } });
  return token;
}

test('a request gets a six-hex token at once, and its profile is stored in memory and announced on the live feed', async (t) => {
  const profiler = memoryProfiler();
  const messages: string[] = [];
  await profiler.live.start();
  profiler.live.onMessage((message) => messages.push(message));
  t.true(profiler.writer.isAvailable, 'nothing to connect: the writer is ready from the start');
  const token = serve(profiler, '/hello');
  t.regex(String(token), /^[0-9a-f]{6}$/);
  await profiler.writer.whenIdle();
  const found = await profiler.storage.read(String(token));
  t.is(found.kind, 'found');
  t.is(await profiler.storage.latest(), token);
  t.deepEqual(
    messages.flatMap((message) => parseLiveMessage(message)).map((summary) => [summary.token, summary.path]),
    [[token, '/hello']],
  );
  t.like(profiler.stats(), { notProfiled: 0, writer: { stored: 1, dropped: 0, state: 'idle' } });
  await profiler.close();
  t.is(profiler.writer.stats.state, 'stopped');
});

test('past PROFILER_MAX_PROFILES the oldest profiles go and the newest stay, each under a token of its own', async (t) => {
  const profiler = memoryProfiler(5);
  const tokens: string[] = [];
  for (let i = 0; i < 12; i++) {
    tokens.push(String(serve(profiler, `/n/${i}`)));
    await profiler.writer.whenIdle();
    // Each request in a millisecond of its own: within one, retention orders by token, as Redis orders equal scores.
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  t.is(new Set(tokens).size, 12);
  t.is(await profiler.storage.count(), 5);
  t.deepEqual((await profiler.storage.find({})).map((row) => row.token).sort(), tokens.slice(-5).sort());
  await profiler.close();
});
