import test from 'ava';
import { formatProfile } from '../../../../src/profiler/ui/cli/format/format-profile';
import { sampleProfile } from '../../../helpers/sample-profile';

const profile = sampleProfile({
  url: 'http://127.0.0.1:8000/hello/anna?x=1',
  duration: 4,
  collectors: {
    events: {
      phases: [
        { name: 'kernel.request', start: 0, duration: 1 },
        { name: 'kernel.controller', start: 1, duration: 1 },
        { name: 'kernel.response', start: 2, duration: 2 },
      ],
      listeners: [
        { phase: 'kernel.request', name: 'RouterListener', priority: 32, start: 0, duration: 0.5 },
        { phase: 'kernel.response', name: 'ResponseListener', priority: 0, start: 2, duration: 0.25 },
        { phase: 'kernel.request', name: 'LocaleListener', priority: 100, start: 0.5, duration: 0.1 },
      ],
    },
    machine: { states: [] },
    router: { route: 'hello', controller: 'helloController', params: { _route: 'hello', name: 'anna' }, failure: null },
    exception: { errors: [] },
    logs: { records: [{ level: 'info', message: 'Matched route "hello".', context: { route: 'hello' }, at: 0.75 }] },
    request: {
      headers: { host: '127.0.0.1:8000' },
      query: { x: '1' },
      cookies: {},
      body: null,
      session: null,
      locale: 'en',
      user: null,
      response: { statusCode: 200, headers: { 'Set-Cookie': ['a=1', 'b=2'], 'X-Debug-Token-Link': 'http://127.0.0.1:8000/_profiler/abc123' } },
    },
  },
});

test('formatProfile shows the summary, phases, listeners grouped by phase, routing, logs and headers', (t) => {
  const text = formatProfile(profile);
  t.true(text.startsWith('Profile abc123 (main request)\n\nSummary\n  Method    GET\n  URL       http://127.0.0.1:8000/hello/anna?x=1\n  Status    200 OK\n'));
  t.true(text.includes('  Time      2025-05-06T07:08:09.010Z\n  Duration  4.00 ms\n'));
  t.true(text.includes('  Panel     http://127.0.0.1:8000/_profiler/abc123\n'));
  t.true(text.includes('Phases\n  kernel.request     +0.00 ms  1.00 ms  |##########'));
  t.true(text.includes('Listeners\n  kernel.request\n     32  RouterListener    0.50 ms\n    100  LocaleListener    0.10 ms\n  kernel.response\n      0  ResponseListener  0.25 ms\n'));
  t.true(text.includes('Routing\n  Route       hello\n  Controller  helloController\n  Params      _route=hello, name=anna\n\n'));
  t.true(text.includes('Errors\n  (none)\n'));
  t.true(text.includes('Logs\n  +0.75 ms  INFO  Matched route "hello".  route="hello"\n'));
  t.true(text.includes('  Query   {"x":"1"}\n'));
  t.true(text.includes('Response headers\n  Set-Cookie: a=1\n  Set-Cookie: b=2\n'));
});

test('formatProfile tells an aborted request and a sub-request apart', (t) => {
  const text = formatProfile({ ...profile, type: 'sub', parent: 'fff000', statusCode: 0, aborted: true });
  t.true(text.startsWith('Profile abc123 (sub-request)\n'));
  t.true(text.includes('  Status    0 (aborted: the client went away before the response)\n'));
  t.true(text.includes('  Parent    fff000\n'));
});

test('formatProfile says which sections have no data when collector entries are missing, and names entries it has no view for', (t) => {
  const text = formatProfile({ ...profile, collectors: { cart: { items: 2 } } });
  t.true(text.startsWith('Profile abc123 (main request)\n\nSummary\n  Method    GET\n'), 'the envelope is shown all the same');
  t.false(text.includes('  Panel '), 'the link comes from the response headers, which are missing');
  t.true(text.includes('Phases\n  (no data: no "timeline" collector entry)\n'), 'phases and listeners are read from the timeline (or the events entry of older profiles)');
  t.true(text.includes('Errors\n  (no data: no "exception" collector entry)\n'));
  t.true(text.includes('Response headers\n  (no data: no "request" collector entry)\n'));
  t.true(text.endsWith('Other collectors (--json shows them)\n  cart\n'));
  t.false(formatProfile(profile).includes('Other collectors'));
});
