import test from 'ava';
import { runQuery } from '../../fixtures/generated/prisma/runtime/client';

test('a query run by an ORM client generated into the application\'s tree has the application\'s line as its origin, not the client\'s', (t) => {
  const origin = runQuery(); // the-application-line
  t.regex(origin?.file ?? '', /capture-origin\.test\.ts$/, JSON.stringify(origin));
  t.is(origin?.line, 5, 'the line that awaited the query');
});
