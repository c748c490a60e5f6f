import test from 'ava';
import { callerFrames, StackReach } from '../../../src/profiler/app-io/capture-origin';
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
