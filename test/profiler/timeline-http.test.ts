import test from 'ava';
import { defineListener } from '../../src';
import { accountTimeline } from '../../src/profiler/ui/account-timeline';
import { TIMELINE_COLLECTOR, type TimelineCollectorData, type TimelineSpan } from '../../src/profiler/collect/collectors/timeline-collector';
import { collectorData } from '../../src/profiler/profile';
import { parseProfile } from '../../src/profiler/profile-schema';
import { runLoupe } from '../cli/run-loupe';
import { httpRequest, type HttpResult } from '../helpers/http-client';
import { parseServerTiming } from '../helpers/server-timing';
import { startTestServer, type TestServer } from '../helpers/test-server';

let server: TestServer;

/** An application listener that times its own async work, nesting a span after an await. */
const cacheWarmer = defineListener('CacheWarmer', {
  'kernel.request': [
    200,
    ({ request, stopwatch }) => {
      if (request.path !== '/hello/timeline') return undefined;
      return stopwatch.span('cache.warm', async (inner) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        inner.start('cache.fill');
        await new Promise((resolve) => setImmediate(resolve));
        inner.stop('cache.fill');
      });
    },
  ],
});

test.before(async () => {
  server = await startTestServer({}, { listeners: [cacheWarmer] });
});

test.after.always(async () => {
  await server?.close();
});

/** A request, then its stored timeline once the writer stored it. */
async function timelineOf(path: string, headers: Record<string, string> = {}): Promise<{ res: HttpResult; timeline: TimelineCollectorData; spans: readonly TimelineSpan[] }> {
  const res = await httpRequest(server.port, { path, headers });
  await server.profiler?.writer.whenIdle();
  const found = await server.profiler?.storage.read(String(res.headers['x-debug-token']));
  if (found?.kind !== 'found') throw new Error(`No profile stored for ${path}.`);
  const parsed = parseProfile(found.json);
  if (!parsed.ok) throw new Error(`The profile of ${path} does not read back: ${parsed.error}.`);
  const timeline = collectorData<TimelineCollectorData>(parsed.profile, TIMELINE_COLLECTOR);
  if (timeline === undefined) throw new Error(`The profile of ${path} has no timeline.`);
  return { res, timeline, spans: timeline.spans };
}

function only(spans: readonly TimelineSpan[], predicate: (span: TimelineSpan) => boolean, what: string): TimelineSpan {
  const found = spans.filter(predicate);
  if (found.length !== 1) throw new Error(`Expected one ${what}, found ${found.length}: ${JSON.stringify(spans.map((span) => span.name))}`);
  return found[0] as TimelineSpan;
}

const childrenOf = (spans: readonly TimelineSpan[], parent: TimelineSpan): TimelineSpan[] => spans.filter((span) => spans[span.parent] === parent);

// Alone, before the others, once the code is warm: a cold start's compilation and garbage
// collection land wherever they happen, often between listeners, where only the machine runs.
test.serial('GET /slow?ms=200: the controller span holds the wait, and almost nothing is unaccounted for', async (t) => {
  for (let i = 0; i < 20; i++) await timelineOf('/slow?ms=0');
  const { res, timeline, spans } = await timelineOf('/slow?ms=200');
  t.is(res.status, 200);
  const controller = only(spans, (span) => span.category === 'controller', 'controller span');
  t.is(controller.name, 'slow.slow');
  t.true(controller.duration >= 199, `controller ${controller.duration} ms`);
  t.is(spans[controller.parent]?.name, 'controller', 'in the machine state that runs it');
  const wait = only(spans, (span) => span.name === 'wait', 'wait span');
  t.is(wait.category, 'app');
  t.is(spans[wait.parent], controller, 'the stopwatch span nests in the controller');
  t.true(wait.duration >= 199 && wait.duration <= controller.duration);
  const { total } = accountTimeline(timeline);
  t.true(total >= controller.duration);
  // On a loaded machine the process may be descheduled anywhere, also between two listeners:
  // the best of three requests tells the instrument's coverage from the scheduler's noise.
  const attempts: string[] = [];
  let best = Infinity;
  for (let attempt = 0; attempt < 3 && best >= 0.05; attempt++) {
    const accounted = accountTimeline(attempt === 0 ? timeline : (await timelineOf('/slow?ms=200')).timeline);
    const where = accounted.rows.filter((row) => row.self > 1).map((row) => `${row.span.name} (${row.span.category}) ${row.self} ms`);
    attempts.push(`unaccounted ${accounted.unaccounted} ms of ${accounted.total} ms [${where.join(', ')}]`);
    best = Math.min(best, accounted.unaccounted / accounted.total);
  }
  t.true(best < 0.05, attempts.join('\n'));
  const listeners = spans.filter((span) => span.category === 'listener');
  t.true(listeners.some((span) => span.name === 'RouterListener' && spans[span.parent]?.name === 'kernel.request'));
});

test('GET /boom: the error sub-request is a span under error_sub_request, linked to its profile, with its own phases', async (t) => {
  const { res, spans } = await timelineOf('/boom');
  t.is(res.status, 500);
  const state = only(spans, (span) => span.depth === 0 && span.name === 'error_sub_request', 'error_sub_request state');
  const sub = only(spans, (span) => span.category === 'sub_request', 'sub-request span');
  t.is(spans[sub.parent], state);
  t.is(sub.token, String(res.headers['x-previous-debug-token']), 'the sub-request profile it links to');
  t.true(sub.start >= state.start && sub.start + sub.duration <= state.start + state.duration + 0.002, JSON.stringify({ sub, state }));
  const phases = childrenOf(spans, sub);
  t.deepEqual(
    phases.map((span) => span.name),
    ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'controller', 'kernel.response', 'kernel.finish_request'],
  );
  t.true(phases.every((span) => span.category === 'phase' && span.depth === sub.depth + 1));
  const controllerState = phases.find((span) => span.name === 'controller');
  if (controllerState === undefined) return t.fail('no controller state');
  t.deepEqual(childrenOf(spans, controllerState).map((span) => span.category), ['controller'], 'the error controller, timed');
  const response = phases.find((span) => span.name === 'kernel.response');
  t.true(response !== undefined && childrenOf(spans, response).some((span) => span.category === 'listener'));
  const failing = only(spans, (span) => span.category === 'controller' && span.depth === 1, 'main controller span');
  t.is(failing.name, 'boom.boom', 'the controller that threw is timed too');
});

test('GET /session: loading and saving the session are session spans around their Redis commands', async (t) => {
  const { spans } = await timelineOf('/session');
  const load = only(spans, (span) => span.name === 'session.load', 'session.load');
  const save = only(spans, (span) => span.name === 'session.save', 'session.save');
  t.is(load.category, 'session');
  t.is(spans[load.parent]?.category, 'controller', 'the controller started the session');
  t.is(spans[save.parent]?.name, 'SessionListener', 'the listener saves it at kernel.response');
  t.deepEqual(childrenOf(spans, save).map(({ name, category }) => [name, category]), [['redis SET', 'redis']]);
  // A new browser: no cookie, nothing to read.
  t.deepEqual(childrenOf(spans, load), []);
  const cookie = String((await httpRequest(server.port, { path: '/session' })).headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
  const again = await timelineOf('/session', { Cookie: cookie });
  const reload = only(again.spans, (span) => span.name === 'session.load', 'session.load');
  t.deepEqual(childrenOf(again.spans, reload).map(({ name }) => name), ['redis GET']);
});

test("a listener's stopwatch span runs to its settle, and the stopwatch it passes nests spans after an await", async (t) => {
  const { spans } = await timelineOf('/hello/timeline');
  const warm = only(spans, (span) => span.name === 'cache.warm', 'cache.warm');
  t.is(spans[warm.parent]?.name, 'CacheWarmer');
  t.true(warm.duration >= 4.5, `${warm.duration} ms`);
  const fill = only(spans, (span) => span.name === 'cache.fill', 'cache.fill');
  t.is(spans[fill.parent], warm);
  t.is(fill.depth, warm.depth + 1);
  const listener = spans[warm.parent];
  t.true(listener !== undefined && listener.duration >= warm.duration, 'the async listener is timed until it settled');
});

test('Server-Timing names the phases, the controller and the total, per the spec', async (t) => {
  const res = await httpRequest(server.port, { path: '/slow?ms=20' });
  const header = res.headers['server-timing'];
  if (typeof header !== 'string') return t.fail('no Server-Timing header');
  const metrics = parseServerTiming(header);
  const byName = new Map(metrics.map((metric) => [metric.name, metric]));
  t.deepEqual(
    metrics.map((metric) => metric.name),
    ['kernel.request', 'kernel.controller', 'kernel.controller_arguments', 'controller', 'kernel.response', 'kernel.finish_request', 'total'],
  );
  t.true((byName.get('controller')?.dur ?? 0) >= 19);
  t.is(byName.get('controller')?.desc, 'slow.slow');
  t.true((byName.get('total')?.dur ?? 0) >= (byName.get('controller')?.dur ?? Infinity));
  t.true(metrics.every((metric) => metric.dur !== undefined));

  const boom = parseServerTiming(String((await httpRequest(server.port, { path: '/boom' })).headers['server-timing']));
  t.true(boom.some((metric) => metric.name === 'sub_request' && (metric.dur ?? -1) >= 0));
  const session = parseServerTiming(String((await httpRequest(server.port, { path: '/session' })).headers['server-timing']));
  t.true(session.some((metric) => metric.name === 'session' && (metric.dur ?? -1) > 0));
});

test('the Performance panel draws the waterfall: nested rows coloured by category, exact times on hover, the sub-request linked, the CSP kept', async (t) => {
  const { res } = await timelineOf('/boom');
  const sub = String(res.headers['x-previous-debug-token']);
  const page = await httpRequest(server.port, { path: `/_profiler/${String(res.headers['x-debug-token'])}?panel=performance` });
  t.is(page.status, 200);
  t.is(page.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
  t.regex(page.body, /<section class="panel" id="panel-performance">/);
  for (const category of ['phase', 'listener', 'controller', 'sub_request']) t.true(page.body.includes(`data-category="${category}"`), category);
  t.regex(page.body, /data-depth="3"/, 'the sub-request\'s listeners sit three levels in');
  t.regex(page.body, /class="bar cat-controller" style="left:[\d.]+%;width:[\d.]+%" title="boom\.boom \(controller\): \d+\.\d{3} ms from \d+\.\d{3} ms, self \d+\.\d{3} ms"/);
  t.true(page.body.includes(`<a href="/_profiler/${sub}">${sub}</a>`));
  t.regex(page.body, /unaccounted: \d+\.\d+ ms \(\d+\.\d % of the total\)/);
  t.notRegex(page.body, /<(script|iframe|object)\b/i, 'nothing to run');
  t.notRegex(page.body, /\ssrc=|url\(|@import/i, 'nothing to load');
  const symfony = await httpRequest(server.port, { path: `/_profiler/${String(res.headers['x-debug-token'])}?panel=time` });
  t.regex(symfony.body, /id="panel-performance"/, "Symfony's panel name opens it too");
});

test('profiler:show prints the timeline as a text waterfall, 40 columns of bar without a terminal', async (t) => {
  const { res } = await timelineOf('/slow?ms=30');
  const run = await runLoupe(['profiler:show', String(res.headers['x-debug-token'])], { REDIS_PREFIX: server.config.redis.prefix });
  t.is(run.code, 0, run.stderr);
  const lines = run.stdout.split('\n');
  const start = lines.indexOf('Timeline');
  const end = lines.indexOf('', start);
  const timeline = lines.slice(start + 1, end);
  t.true(start > 0 && timeline.length > 10, run.stdout);
  const bars = timeline.slice(0, -1);
  t.deepEqual(bars.filter((line) => !/^ {2}( {2})*\S.*\s\+\d+\.\d+ m?s\s+\d+\.\d+ m?s {2}\|[ #]{40}\|$/.test(line)), [], 'every span has its line and a 40-column bar');
  const wait = bars.find((line) => line.trim().startsWith('wait '));
  t.regex(wait ?? '', /^ {6}wait /, 'the stopwatch span two levels in: state, controller, wait');
  const ms = (text: string): number => Number.parseFloat(text) * (text.endsWith(' s') ? 1000 : 1);
  const total = /^ {2}unaccounted: \d+\.\d+ ms \(\d+\.\d % of (\d+\.\d+ m?s)\)$/.exec(timeline.at(-1) ?? '');
  t.truthy(total, timeline.at(-1));
  // The bar is on the request's time axis: its share of 40 columns is the wait's share of the request.
  const axis = Math.max(ms(total?.[1] ?? '0'), ...bars.map((line) => {
    const [, start = '0', duration = '0'] = /\+(\d+\.\d+ m?s)\s+(\d+\.\d+ m?s) {2}\|/.exec(line) ?? [];
    return ms(start) + ms(duration);
  }));
  const [, waitDuration = '0', waitBar = ''] = /(\d+\.\d+ m?s) {2}\|([ #]{40})\|$/.exec(wait ?? '') ?? [];
  // The controller sleeps 30 ms; Node's timers may fire a little early against the span's clock.
  t.true(ms(waitDuration) >= 25, wait);
  const hashes = waitBar.replaceAll(' ', '').length;
  t.true(Math.abs(hashes - (ms(waitDuration) / axis) * 40) <= 1.5, `${hashes} columns for ${waitDuration} of ${axis} ms: ${wait ?? ''}`);
  t.regex(waitBar, /^ *#+ *$/, 'one unbroken bar');
});
