import test from 'ava';
import { matchesLiveFilter, parseStatusFilter } from '../../../../src/profiler/ui/live/live-filter';
import { type LiveSummary } from '../../../../src/profiler/ui/live/live-summary';

const summary: LiveSummary = { token: 'abc123', method: 'POST', path: '/api/echo?x=1', ip: '127.0.0.1', url: 'http://localhost/api/echo?x=1', status: 502, durationMs: 120, time: 0, sub: false, parent: null, aborted: false };

test('a status filter is a class (5xx) or an exact code; anything else is refused', (t) => {
  t.deepEqual(parseStatusFilter('5xx'), { class: 5 });
  t.deepEqual(parseStatusFilter(' 2XX '), { class: 2 });
  t.deepEqual(parseStatusFilter('404'), { code: 404 });
  t.deepEqual(parseStatusFilter('0'), { code: 0 });
  for (const bad of ['6xx', 'x', '', '1000', '4.5']) t.is(parseStatusFilter(bad), null, bad);
});

test('every given filter must match: method (any case), status, path substring, least duration', (t) => {
  t.true(matchesLiveFilter(summary, {}));
  t.true(matchesLiveFilter(summary, { method: 'post', status: { class: 5 }, path: '/api', minMs: 120 }));
  t.false(matchesLiveFilter(summary, { method: 'GET' }));
  t.false(matchesLiveFilter(summary, { status: { class: 4 } }));
  t.false(matchesLiveFilter(summary, { status: { code: 500 } }));
  t.false(matchesLiveFilter(summary, { path: '/hello' }));
  t.false(matchesLiveFilter(summary, { minMs: 120.5 }));
});
