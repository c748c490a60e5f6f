import test from 'ava';
import { defineListener } from '../../../../src';
import { profilerSettings } from '../../../../src/profiler/ui/panel/profiler-settings';
import { PROFILER_DEFAULTS } from '../../../../src/profiler/profiler-config';
import { readRedisConfig } from '../../../../src/redis/redis-config';
import { profileRequests } from '../cli/profile-requests';
import { httpRequest, type HttpResult } from '../../../helpers/http-client';
import { startTestServer, type TestServer } from '../../../helpers/test-server';

// The profiler's pages as a developer first opens them: over HTTP, on the real server and Redis.

/** Logs at two levels on one path, and fails with a string `cause` on another. */
const roughEdges = defineListener('PagesTestListener', {
  'kernel.request': [
    0,
    (event) => {
      if (event.request.path === '/hello/log-levels') {
        event.log('warning', 'Stock is running low.');
        event.log('debug', 'Cart read from the session.');
      }
      if (event.request.path === '/hello/string-cause') throw new Error('The payment failed', { cause: 'the card issuer said no' });
    },
  ],
});

let server: TestServer;

test.before(async () => {
  server = await startTestServer({}, { listeners: [roughEdges] });
});

test.after.always(async () => {
  await server?.close();
});

const get = (path: string, headers: Record<string, string> = {}): Promise<HttpResult> => httpRequest(server.port, { path, headers });

test('/_profiler/live opened in a browser leads to the search page with the live list, not to a 404', async (t) => {
  const res = await get('/_profiler/live', { Accept: 'text/html' });
  t.is(res.status, 302);
  t.is(res.headers['location'], '/_profiler/empty/search/results?limit=50');
  const page = await get(String(res.headers['location']));
  t.is(page.status, 200);
  t.true(page.body.includes('<section class="live" data-live="/_profiler/live"'));
  // As the README says: 50 per page.
  t.true(page.body.includes('<input name="limit" value="50"'));
});

test('the sidebar of every page shows only stored, dropped and not profiled; the writer internals are on the status page', async (t) => {
  const [token = ''] = await profileRequests(server, [{ path: '/hello/sidebar' }]);
  for (const path of [`/_profiler/${token}`, '/_profiler/empty/search/results', `/_profiler/${token}/compare/${token}`]) {
    const { body } = await get(path);
    const sidebar = body.slice(body.indexOf('<aside class="sidebar">'), body.indexOf('</aside>'));
    for (const counter of ['stored', 'dropped', 'not-profiled']) t.true(sidebar.includes(`data-counter="${counter}"`), `${path} ${counter}`);
    for (const internal of ['replaced', 'queued', 'writer-state']) t.false(sidebar.includes(`data-counter="${internal}"`), `${path} ${internal}`);
    t.true(sidebar.includes('href="/_profiler/status"'), path);
  }
  const status = await get('/_profiler/status');
  for (const internal of ['replaced', 'queued', 'writer-state']) t.true(status.body.includes(`data-counter="${internal}"`), internal);
});

test('the status page shows the configuration: Redis, key prefix, retention, sampling and capture', async (t) => {
  const { prefix } = server.config.redis;
  const status = await get('/_profiler/status');
  t.true(status.body.includes('<h3>Configuration</h3>'));
  t.regex(status.body, /<tr data-setting="redis-url"><th>Redis<\/th><td class="mono">redis:\/\/127\.0\.0\.1:6379[^<]*<\/td><td class="mono empty">REDIS_URL<\/td><\/tr>/);
  t.true(status.body.includes(`<tr data-setting="prefix"><th>Key prefix</th><td class="mono">${prefix}</td>`));
  t.true(status.body.includes('<tr data-setting="lifetime"><th>Retention</th><td class="mono">1 day</td>'));
  t.true(status.body.includes('<tr data-setting="max-bytes"><th>Most bytes in all</th><td class="mono">256 MiB</td>'));
  t.true(status.body.includes('<tr data-setting="max-profile-bytes"><th>Most bytes per profile</th><td class="mono">64 KiB</td>'));
  t.regex(status.body, /<p>Profiles in storage now: <strong data-counter="indexed">\d+<\/strong> — those of every process[^<]*<em>Stored<\/em> above counts only\nthis process's writes since it started/);
  t.false(status.body.includes('<aside class="sidebar">'), 'no empty left column');
  t.true(status.body.includes('<tr data-setting="sample"><th>Sampling</th><td class="mono">1</td>'));
  t.regex(status.body, /<tr data-setting="capture"><th>Captured I\/O<\/th><td class="mono">http, redis, mysql2, pg, postgres<\/td>/);
  const json = JSON.parse((await get('/_profiler/status', { Accept: 'application/json' })).body) as { settings: Record<string, unknown> };
  t.like(json.settings, { prefix, lifetime: 86_400, sample: 1, capture: ['http', 'redis', 'mysql2', 'pg', 'postgres'] });
});

test('the configuration shown never holds the Redis password', (t) => {
  const settings = profilerSettings(readRedisConfig({ REDIS_URL: 'redis://app:s3cret@redis.internal:6380/2' }), PROFILER_DEFAULTS);
  t.is(settings.redisUrl, 'redis://app:***@redis.internal:6380/2');
  t.false(JSON.stringify(settings).includes('s3cret'));
});

test('the Logs panel filters by level with links the server answers (?level=)', async (t) => {
  const [token = ''] = await profileRequests(server, [{ path: '/hello/log-levels' }]);
  const all = await get(`/_profiler/${token}?panel=logs`);
  t.true(all.body.includes('Stock is running low.') && all.body.includes('Cart read from the session.'));
  t.regex(all.body, new RegExp(`<a href="/_profiler/${token}\\?panel=logs&amp;level=warning" data-level="warning">warning <span class="badge">1</span></a>`));
  t.regex(all.body, /<a href="[^"]*" data-level="" aria-current="true">All <span class="badge">\d+<\/span><\/a>/);
  const warnings = await get(`/_profiler/${token}?panel=logs&level=warning`);
  t.true(warnings.body.includes('Stock is running low.'));
  t.false(warnings.body.includes('Cart read from the session.'));
  t.true(warnings.body.includes('data-level="warning" aria-current="true"'));
  const none = await get(`/_profiler/${token}?panel=logs&level=emergency`);
  t.true(none.body.includes('No log message of level "emergency".'), none.body);
});

test('a string cause shows as the string, not as "NonError"', async (t) => {
  const res = await get('/hello/string-cause');
  t.is(res.status, 500);
  const [token = ''] = await profileRequests(server, [{ path: '/hello/string-cause' }]);
  const panel = await get(`/_profiler/${token}?panel=exception`);
  t.true(panel.body.includes('The payment failed'));
  t.true(panel.body.includes('<code class="thrown-value">the card issuer said no</code>'));
  t.false(panel.body.includes('NonError'), 'the flattened name of a thrown non-Error is not shown');
});

test('the Performance panel folds the profiler\'s own listeners and empty rows into one click, and says what Total and Duration measure', async (t) => {
  const [token = ''] = await profileRequests(server, [{ path: '/config.yaml' }]);
  const { body } = await get(`/_profiler/${token}?panel=performance`);
  const [main = '', folded = ''] = body.split('<details class="all-spans">');
  t.true(folded.length > 0, 'the folded spans are there, one click away');
  for (const name of ['ProfilerListener', 'WebDebugToolbarListener', 'ProfilerAccessListener']) {
    t.false(main.includes(`title="${name}"`), `${name} is folded`);
    t.true(folded.includes(`title="${name}"`), `${name} is one click away`);
  }
  t.false(/<span class="time" title="[^"]*">0\.00 ms<\/span>/.test(main), 'no 0.00 ms row above the fold');
  t.regex(folded, /^<summary>All \d+ spans: \d+ more, the profiler's own listeners and spans under 0\.01 ms<\/summary>/);
  // The error sub-request stays, with its link.
  t.regex(main, /data-category="sub_request"/);
  t.regex(body, /<strong>Total: <span class="total">[\d.]+ m?s<\/span><\/strong> from the request's start until its profile was collected, kernel\.terminate included;\nthe response was sent after <span class="response-time">[\d.]+ m?s<\/span> \(the Duration above\)/);
});

test('each span category of the Performance panel has a colour of its own (sub_request is not redis\'s red)', async (t) => {
  const [token = ''] = await profileRequests(server, [{ path: '/hello/colours' }]);
  const { body } = await get(`/_profiler/${token}?panel=performance`);
  const colours = new Map([...body.matchAll(/\.cat-([a-z_]+) \{ --span: #([0-9a-f]{6}); \}/g)].map(([, name = '', hex = '']) => [name, hex]));
  t.true(colours.size >= 10, [...colours.keys()].join(', '));
  const rgb = (hex: string): number[] => [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));
  for (const [a, hexA] of colours) {
    for (const [b, hexB] of colours) {
      if (a >= b) continue;
      const distance = Math.hypot(...rgb(hexA).map((value, index) => value - (rgb(hexB)[index] ?? 0)));
      t.true(distance >= 50, `${a} #${hexA} and ${b} #${hexB} are too close (${distance.toFixed(0)})`);
    }
  }
});

test('the Events chart draws the controller between the kernel\'s phases, as the request spent it', async (t) => {
  const [token = ''] = await profileRequests(server, [{ path: '/hello/events' }]);
  const { body } = await get(`/_profiler/${token}?panel=events`);
  const chart = /<div class="timeline">[\s\S]*?<\/div>\n<\/div>|<div class="timeline">[\s\S]*?<h3/.exec(body)?.[0] ?? '';
  const rows = [...chart.matchAll(/<div class="row" data-name="([^"]+)">/g)].map(([, name]) => name);
  t.true(rows.includes('controller'), rows.join(', '));
  t.true(rows.indexOf('kernel.controller_arguments') < rows.indexOf('controller') && rows.indexOf('controller') < rows.indexOf('kernel.response'), rows.join(', '));
});

test('the State machine panel draws the request\'s path through the states, not the Events chart or table again', async (t) => {
  const [token = ''] = await profileRequests(server, [{ path: '/hello/machine' }]);
  const { body } = await get(`/_profiler/${token}?panel=machine`);
  const path = [...body.matchAll(/<li class="state" data-state="([^"]+)" title="Entered at [\d.]+ m?s"><span class="mono name">\1<\/span> <span class="time">[\d.]+ m?s<\/span><\/li>/g)].map(([, state]) => state);
  t.deepEqual(path.slice(0, 3), ['kernel.request', 'kernel.controller', 'kernel.controller_arguments'], path.join(' → '));
  t.true(path.indexOf('controller') > path.indexOf('kernel.controller_arguments') && path.indexOf('kernel.response') > path.indexOf('controller'), path.join(' → '));
  t.false(body.includes('<table'), 'no table');
  t.false(body.includes('<div class="timeline">'), 'no chart');
  t.true(body.includes(`href="/_profiler/${token}?panel=performance"`));
});

test('the compare page colours slower and faster, and a change below 0.01 ms is ±0.00 ms with no percentage', async (t) => {
  const [fast = '', slow = ''] = await profileRequests(server, [{ path: '/slow?ms=0' }, { path: '/slow?ms=300' }]);
  const same = await get(`/_profiler/${fast}/compare/${fast}`);
  t.regex(same.body, /<td class="diff">±0\.00 ms<\/td>/);
  t.false(/[−+±]0\.00 ms \(/.test(same.body), 'no percentage of nothing');
  // Which of the two took longer is measured, not assumed: on a loaded machine the sleep may not decide it.
  const forward = await get(`/_profiler/${fast}/compare/${slow}`);
  const diff = Number(/data-diff="(-?[\d.]+)"/.exec(forward.body)?.[1]);
  const backward = await get(`/_profiler/${slow}/compare/${fast}`);
  const [slower, faster] = diff > 0 ? [forward, backward] : [backward, forward];
  t.regex(slower.body, /B took <strong class="diff slower">\+[\d.]+ m?s \(\+[\d.]+ %\)<\/strong> against A/);
  t.regex(slower.body, /\.diff\.slower \{ color: #[0-9a-f]{6}/);
  t.regex(faster.body, /B took <strong class="diff faster">−[\d.]+ m?s/);
  t.regex(faster.body, /\.diff\.faster \{ color: #[0-9a-f]{6}/);
});
