import test from 'ava';
import { durationText } from '../../src/http/server-timing-text';
import { serverTimingHeader } from '../../src/kernel/server-timing';
import { Trace } from '../../src/kernel/trace';
import { parseServerTiming } from '../helpers/server-timing';

/** A trace in its controller with spans of fixed durations (ms) under it, as the I/O capture opens them. */
function traceWith(spans: readonly (readonly [category: 'db' | 'http' | 'cache' | 'app', duration: number, nested?: boolean])[]): Trace {
  const trace = new Trace();
  trace.enter('kernel.controller_arguments');
  const controller = trace.beginController('app.controller');
  let last = controller;
  for (const [category, duration, nested] of spans) {
    last = trace.open(`${category} span`, category, nested === true ? last : controller);
    const span = trace.spans[last];
    if (span !== undefined) span.duration = duration;
  }
  return trace;
}

function durations(trace: Trace): Record<string, number | undefined> {
  return Object.fromEntries(parseServerTiming(serverTimingHeader(trace)).map((metric) => [metric.name, metric.dur]));
}

test('db, http and cache add up the durations of the spans of their category', (t) => {
  const metrics = durations(traceWith([['db', 2], ['db', 3.5], ['http', 10], ['cache', 0.25], ['cache', 0.5], ['app', 7]]));
  t.is(metrics['db'], 5.5);
  t.is(metrics['http'], 10);
  t.is(metrics['cache'], 0.75);
});

test('a call inside another of its kind is counted once, in the outer one', (t) => {
  const metrics = durations(traceWith([['http', 10], ['http', 4, true]]));
  t.is(metrics['http'], 10);
});

test('db, http and cache are left out when the request did no such I/O, and come before the total', (t) => {
  const header = serverTimingHeader(traceWith([['app', 3], ['db', 1]]));
  const names = parseServerTiming(header).map((metric) => metric.name);
  t.false(names.includes('http') || names.includes('cache'), header);
  t.deepEqual(names.slice(-2), ['db', 'total']);
  t.is(parseServerTiming(header).find((metric) => metric.name === 'db')?.desc, 'SQL queries');
});

test('a duration is written to the microsecond, as toFixed(3) writes it', (t) => {
  const samples = [0, 0.0004, 0.0005, 0.001, 0.009, 0.01, 0.099, 0.1, 0.25, 1, 1.5, 12.3456, 999.9995, 1000, 86_400_000.123];
  for (let i = 0; i < 500; i++) samples.push(Math.random() * (i % 2 === 0 ? 2 : 5000));
  for (const ms of samples) t.is(durationText(ms), ms.toFixed(3), String(ms));
  t.is(durationText(0.042), '0.042');
  t.is(durationText(12.5), '12.500');
});

test('what no clock gives is written as toFixed(3) writes it, never as a broken number', (t) => {
  for (const ms of [-1.5, Number.NaN, Number.POSITIVE_INFINITY, 1e300]) t.is(durationText(ms), ms.toFixed(3));
});
