import test from 'ava';
import { callerFrames, StackReach, type CallOrigin } from '../../../src/profiler/app-io/capture-origin';
import { runNestedQuery, runQuery } from '../../fixtures/generated/prisma/runtime/client';

test('a query run by an ORM client generated into the application\'s tree has the application\'s line as its origin, not the client\'s', (t) => {
  const origin = runQuery(); // the-application-line
  t.regex(origin?.file ?? '', /capture-origin\.test\.ts$/, JSON.stringify(origin));
  t.is(origin?.line, 6, 'the line that awaited the query');
});

function queryFromTheApplication(layers: number, reach: StackReach) {
  return runNestedQuery(layers, reach); // the-query-line
}

test('a kind of call that learned its application frame lies shallow still finds one that lies deeper, with the frames above it', (t) => {
  const reach = new StackReach();
  const shallow = queryFromTheApplication(0, reach);
  t.is(shallow.line, 12);
  t.true(reach.deepest >= 0 && reach.deepest < 4, `learned ${reach.deepest}`);
  const learned = reach.limit(24);
  t.true(learned < 24, `looks at ${learned} frames, not the whole depth`);
  // Deeper than what it learned: looked for again at the whole depth.
  const deep = queryFromTheApplication(learned + 2, reach);
  t.is(deep.found, 'stack');
  t.is(deep.line, 12, JSON.stringify(deep));
  t.true(reach.deepest > learned, `learned ${reach.deepest}`);
  // The frames above the origin are the application's caller, this test.
  t.true(callerFrames(deep).some((frame) => frame.function.includes('queryFromTheApplication') || /capture-origin\.test\.ts$/.test(frame.file)), JSON.stringify(callerFrames(deep)));
});

/** Makes a call from this line, resolving with its origin; run by setImmediate, nothing of the application's calls it. */
function sharedOrigin(reach: StackReach, resolve: (origin: CallOrigin) => void): void {
  resolve(runNestedQuery(0, reach)); // the-shared-line
}

const fromTheEventLoop = (reach: StackReach) => new Promise<CallOrigin>((resolve) => setImmediate(sharedOrigin, reach, resolve));

function fromTheApplication(reach: StackReach): CallOrigin {
  let origin: CallOrigin | undefined;
  sharedOrigin(reach, (made) => (origin = made));
  if (origin === undefined) throw new Error('No origin was made.');
  return origin;
}

test('an origin nothing of the application\'s calls is taken alone after its first call; called from the application later, it gets its stack back', async (t) => {
  const reach = new StackReach();
  for (let call = 0; call < 3; call++) {
    const origin = await fromTheEventLoop(reach);
    t.is(origin.line, 33, JSON.stringify(origin));
    t.deepEqual(callerFrames(origin), []);
    t.true(reach.alone, `call ${call}: the frames above the origin held nothing of the application's`);
  }
  // The same line, now called from this file: its frames above are looked at again within a few dozen calls.
  const stacks: CallOrigin[][] = [];
  for (let call = 0; call < 40; call++) stacks.push(callerFrames(fromTheApplication(reach)));
  const first = stacks.findIndex((frames) => frames.some((frame) => frame.function.includes('fromTheApplication')));
  t.true(first >= 0 && first <= 33, `the caller appeared at call ${first}`);
  t.true(stacks.slice(first).every((frames) => frames.some((frame) => frame.function.includes('fromTheApplication'))), 'and stays once seen');
  t.false(reach.alone);
});
