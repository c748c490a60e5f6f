import test from 'ava';
import { LoupeError } from '../../src/errors/loupe-error';
import { MAX_SPANS, OPEN_SPAN, Trace } from '../../src/kernel/trace';

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

test('lastStateStart is the start of the state entered last, past the spans opened in it; null before any', (t) => {
  const trace = new Trace();
  t.is(trace.lastStateStart, null);
  trace.enter('request');
  trace.enter('controller');
  trace.end(trace.beginListener('SomeListener', 0));
  trace.span('work', () => undefined);
  t.is(trace.lastStateStart, trace.states.at(-1)?.start ?? -1);
  t.is(trace.states.at(-1)?.name, 'controller');
  trace.finish();
  t.is(trace.lastStateStart, trace.states.at(-1)?.start ?? -1);
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

test('the controller span and a span() inside it nest under the current state; a sync span ends when its function returns', (t) => {
  const trace = new Trace();
  trace.enter('controller');
  const controller = trace.beginController('hello.hello');
  const answer = trace.span('render', (inner) => inner.span('template', () => 42));
  trace.end(controller);
  t.is(answer, 42);
  const [state, ctrl, render, template] = trace.spans;
  t.like(ctrl, { name: 'hello.hello', category: 'controller', parent: 0, depth: 1 });
  t.like(render, { name: 'render', category: 'app', parent: 1, depth: 2 });
  t.like(template, { name: 'template', category: 'app', parent: 2, depth: 3 });
  t.is(state?.duration, OPEN_SPAN, 'the state runs on');
  for (const span of [ctrl, render, template]) t.true((span?.duration ?? -1) >= 0);
});

test('an async span is timed until it settles, also when it rejects; the stopwatch it gets nests spans after an await', async (t) => {
  const trace = new Trace();
  trace.enter('controller');
  const work = trace.span('load', async (inner) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    inner.start('parse');
    inner.stop('parse');
    return 'loaded';
  });
  t.is(trace.spans[1]?.duration, OPEN_SPAN, 'open while the promise is pending');
  t.is(await work, 'loaded');
  await Promise.resolve();
  const load = trace.spans[1];
  t.true((load?.duration ?? 0) >= 4.5, `${load?.duration} ms`);
  t.like(trace.spans[2], { name: 'parse', parent: 1, depth: 2 });
  const failing = trace.span('fail', () => Promise.reject(new Error('no')));
  await t.throwsAsync(failing, { message: 'no' });
  await Promise.resolve();
  t.true((trace.spans[3]?.duration ?? -1) >= 0);
});

test('a function that throws closes its span and the error goes on', (t) => {
  const trace = new Trace();
  trace.enter('controller');
  t.throws(() => trace.span('boom', () => { throw new Error('boom'); }), { message: 'boom' });
  t.true((trace.spans[1]?.duration ?? -1) >= 0);
  trace.span('after', () => undefined);
  t.is(trace.spans[2]?.parent, 0, 'the failed span no longer takes children');
});

test('start() nests what follows until stop(); stopping a span never started is a clear error', (t) => {
  const trace = new Trace();
  trace.enter('kernel.request');
  const listener = trace.beginListener('Warmer', 10);
  trace.start('outer', 'redis');
  trace.start('inner');
  trace.stop('inner');
  trace.stop('outer');
  trace.end(listener);
  t.like(trace.spans[2], { name: 'outer', category: 'redis', parent: 1 });
  t.like(trace.spans[3], { name: 'inner', parent: 2 });
  const error = t.throws(() => trace.stop('never'), { instanceOf: LoupeError, message: 'The stopwatch span "never" is not started: call start("never") first.' });
  t.is(error?.code, 'LOUPE_ERR_STOPWATCH_NOT_STARTED');
  t.throws(() => trace.stop('outer'), { instanceOf: LoupeError }, 'a span stops once');
});

test('without detail only states are recorded: the stopwatch runs functions and records nothing, the log keeps nothing', (t) => {
  const trace = new Trace(false);
  trace.enter('kernel.request');
  t.is(trace.beginListener('RouterListener', 32), -1);
  trace.enter('controller');
  t.is(trace.beginController('C'), -1);
  t.is(trace.span('x', () => 'ran'), 'ran');
  trace.start('y');
  trace.stop('y');
  trace.stop('never');
  trace.log('info', 'not kept');
  t.deepEqual(trace.spans.map((span) => span.name), ['kernel.request', 'controller']);
  t.deepEqual(trace.logs, []);
});

test('application spans stop at MAX_SPANS and are counted; stop() of one not recorded is no error', (t) => {
  const trace = new Trace();
  trace.enter('controller');
  for (let i = 0; i < MAX_SPANS + 10; i++) trace.span('loop', () => undefined);
  t.is(trace.spans.length, MAX_SPANS);
  t.is(trace.droppedSpans, 11);
  trace.start('late');
  t.notThrows(() => trace.stop('late'));
});
