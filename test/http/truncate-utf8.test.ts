import test from 'ava';
import { truncateUtf8 } from '../../src/http/truncate-utf8';

test('a short text is returned as it is', (t) => {
  t.is(truncateUtf8('short', 2000), 'short');
  t.is(truncateUtf8('x'.repeat(2000), 2000), 'x'.repeat(2000));
});

test('cuts by bytes, never inside a character', (t) => {
  t.is(truncateUtf8('x'.repeat(2001), 2000).length, 2000);
  // 'é' is 2 bytes: 1000 of them fill 2000 bytes exactly; 'x' + 1000 would split one.
  t.is(truncateUtf8('é'.repeat(1001), 2000), 'é'.repeat(1000));
  t.is(truncateUtf8(`x${'é'.repeat(1000)}`, 2000), `x${'é'.repeat(999)}`);
  t.is(truncateUtf8('😀😀', 7), '😀');
  t.is(truncateUtf8('😀', 3), '');
  t.is(truncateUtf8('€', 0), '');
});
