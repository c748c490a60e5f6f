import test from 'ava';
import { asksToClose } from '../../src/server/asks-to-close';

test('asksToClose finds `close` in any case among the Connection header\'s options, and nothing else', (t) => {
  t.true(asksToClose({ connection: 'close' }));
  t.true(asksToClose({ connection: 'Keep-Alive, CLOSE' }));
  t.false(asksToClose({ connection: 'keep-alive' }));
  t.false(asksToClose({ connection: 'closed' }));
  t.false(asksToClose({}));
});
