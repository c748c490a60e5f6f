import test from 'ava';
import { resolve } from 'node:path';
import { createActor, setup } from 'xstate';
import { flattenError } from '../../src/error-handler/flatten-error';
import { hideMachineFrames, isMachineFrame } from '../../src/error-handler/hide-machine-frames';
import { type StackFrame } from '../../src/error-handler/parse-stack';

const ROOT = resolve(__dirname, '..', '..');
const frame = (fn: string, file: string): StackFrame => ({ function: fn, file, line: 1, column: 1 });
const xstate = (fn: string): StackFrame => frame(fn, `${ROOT}/node_modules/xstate/dist/raise-9de11213.cjs.js`);

test("XState's files and Loupe's machine glue are the machine's; the kernel's, the application's and other packages' are not", (t) => {
  t.true(isMachineFrame(xstate('exec')));
  t.true(isMachineFrame(frame('Object.dispatch', `${ROOT}/src/kernel/kernel-machine.ts`)));
  t.true(isMachineFrame(frame('Object.dispatch', `${ROOT}/dist/src/kernel/kernel-machine.js`)));
  t.true(isMachineFrame(frame('guard', `${ROOT}/machines/request.machine.ts`)));
  t.false(isMachineFrame(frame('dispatchPhase', `${ROOT}/src/kernel/dispatch-phase.ts`)));
  t.false(isMachineFrame(frame('handle', '/srv/app/machines/order.machine.ts')), "an application's own machines are its frames");
  t.false(isMachineFrame(frame('query', `${ROOT}/node_modules/ioredis/built/Redis.js`)));
});

test('each run of machine frames becomes one frame that counts them; the others stay in order', (t) => {
  const frames = [
    frame('toHttpError', '/app/router-listener.ts'),
    frame('dispatchPhase', `${ROOT}/src/kernel/dispatch-phase.ts`),
    frame('Object.dispatch', `${ROOT}/src/kernel/kernel-machine.ts`),
    xstate('exec'),
    xstate('microstep'),
    frame('Kernel.handle', `${ROOT}/src/kernel/kernel.ts`),
    xstate('Actor.send'),
  ];
  const out = hideMachineFrames(frames);
  t.deepEqual(
    out.map((f) => f.function),
    ['toHttpError', 'dispatchPhase', '... 3 state-machine frames hidden (XState)', 'Kernel.handle', '... 1 state-machine frame hidden (XState)'],
  );
  t.like(out[2], { file: '', line: 0, hidden: 3 });
  t.deepEqual(hideMachineFrames([]), []);
});

test('the first frame is kept even inside XState: it is where the error was created', (t) => {
  const out = hideMachineFrames([xstate('createActor'), xstate('start'), frame('main', '/app/main.ts')]);
  t.deepEqual(out.map((f) => f.function), ['createActor', '... 1 state-machine frame hidden (XState)', 'main']);
});

test('an error thrown in an action XState runs keeps its own frame and shows no XState file', (t) => {
  let caught: unknown = null;
  const machine = setup({
    actions: {
      fail: () => {
        throw new Error('from an action');
      },
    },
  }).createMachine({ entry: 'fail' });
  const actor = createActor(machine);
  actor.subscribe({ error: (error) => void (caught = error) });
  actor.start();
  const { trace } = flattenError(caught);
  t.regex(trace[0]?.function ?? '', /\bfail$/);
  t.is(trace[0]?.file, __filename);
  t.false(trace.some((f) => f.file.includes('node_modules/xstate')));
  t.true(trace.some((f) => (f.hidden ?? 0) > 0 && f.function.endsWith('hidden (XState)')));
});
