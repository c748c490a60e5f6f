import test from 'ava';
import { Trace } from '../../src/kernel/trace';

test('a new trace is empty and started now', (t) => {
  const before = Date.now();
  const trace = new Trace();
  t.true(trace.startedAt >= before && trace.startedAt <= Date.now());
  t.deepEqual(trace.states, []);
  t.deepEqual(trace.listeners, []);
  t.deepEqual(trace.logs, []);
  t.true(trace.now() >= 0);
});

test('now() never goes back', (t) => {
  const trace = new Trace();
  let last = trace.now();
  for (let i = 0; i < 100; i++) {
    const now = trace.now();
    t.true(now >= last);
    last = now;
  }
});

test('enter() closes the previous state: its duration reaches the start of the next', (t) => {
  const trace = new Trace();
  trace.enter('request');
  trace.enter('controller');
  trace.enter('response');
  t.deepEqual(
    trace.states.map(({ name }) => name),
    ['request', 'controller', 'response'],
  );
  const [request, controller, response] = trace.states;
  if (request === undefined || controller === undefined || response === undefined) return t.fail('expected three states');
  t.true(request.start >= 0);
  t.true(controller.start >= request.start && response.start >= controller.start);
  t.is(request.duration, controller.start - request.start);
  t.is(controller.duration, response.start - controller.start);
  // The last state stays open until finish().
  t.is(response.duration, 0);
});

test('finish() closes the last state and answers when the request ended', (t) => {
  const trace = new Trace();
  trace.enter('request');
  trace.enter('terminate');
  const end = trace.finish();
  const last = trace.states[1];
  if (last === undefined) return t.fail('expected two states');
  t.is(last.duration, end - last.start);
  t.true(last.duration >= 0);
  t.true(end <= trace.now());
});

test('finish() a second time, or with no state, changes nothing', (t) => {
  const trace = new Trace();
  t.true(trace.finish() >= 0);
  t.deepEqual(trace.states, []);
  trace.enter('request');
  trace.finish();
  const closed = { ...trace.states[0] };
  trace.finish();
  t.deepEqual(trace.states, [closed]);
});

test('a state entered after finish() does not reopen the old one', (t) => {
  const trace = new Trace();
  trace.enter('request');
  trace.finish();
  const duration = trace.states[0]?.duration;
  trace.enter('late');
  t.is(trace.states[0]?.duration, duration);
  t.is(trace.states.length, 2);
});

test('a listener span keeps its phase, name, priority, start and a duration up to its end', (t) => {
  const trace = new Trace();
  trace.enter('kernel.request');
  const start = trace.now();
  const span = trace.beginListener('RouterListener', 32);
  t.deepEqual(trace.listeners, [], 'a listener still running is not among those that ran');
  trace.end(span);
  const after = trace.now();
  const [record] = trace.listeners;
  if (record === undefined) return t.fail('nothing recorded');
  t.is(record.phase, 'kernel.request');
  t.is(record.name, 'RouterListener');
  t.is(record.priority, 32);
  t.true(record.start >= start);
  t.true(record.duration >= 0 && record.duration <= after - start);
});

test('log keeps the level, message, context (empty by default) and the time', (t) => {
  const trace = new Trace();
  const before = trace.now();
  trace.log('info', 'Matched route "hello".', { route: 'hello' });
  trace.log('warning', 'The client disconnected.');
  t.deepEqual(
    trace.logs.map(({ level, message, context }) => ({ level, message, context })),
    [
      { level: 'info', message: 'Matched route "hello".', context: { route: 'hello' } },
      { level: 'warning', message: 'The client disconnected.', context: {} },
    ],
  );
  const [first, second] = trace.logs;
  if (first === undefined || second === undefined) return t.fail('expected two entries');
  t.true(first.at >= before && second.at >= first.at && second.at <= trace.now());
});
