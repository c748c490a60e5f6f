import test from 'ava';
import { asksToClose, CloseGuard } from '../../src/server/close-guard';

test('asksToClose finds `close` in any case among the Connection header\'s options, and nothing else', (t) => {
  t.true(asksToClose({ connection: 'close' }));
  t.true(asksToClose({ connection: 'Keep-Alive, CLOSE' }));
  t.false(asksToClose({ connection: 'keep-alive' }));
  t.false(asksToClose({ connection: 'closed' }));
  t.false(asksToClose({}));
});

test('the guard refuses the next request from the answered peer while its connection stays open, until the loop turns', async (t) => {
  const guard = new CloseGuard();
  guard.answered('10.0.0.1', () => undefined);
  t.true(guard.isPipelinedAfterClose('10.0.0.1'));
  await new Promise((resolve) => setImmediate(resolve));
  t.false(guard.isPipelinedAfterClose('10.0.0.1'));
});

test('the guard forgets the peer when a connection closes, within the write or after it, or when another peer\'s request comes', (t) => {
  const guard = new CloseGuard();
  guard.answered('10.0.0.1', () => guard.connectionClosed());
  t.false(guard.isPipelinedAfterClose('10.0.0.1'));
  guard.answered('10.0.0.1', () => undefined);
  guard.connectionClosed();
  t.false(guard.isPipelinedAfterClose('10.0.0.1'));
  guard.answered('10.0.0.1', () => undefined);
  t.false(guard.isPipelinedAfterClose('10.0.0.2'));
  t.false(guard.isPipelinedAfterClose('10.0.0.1'));
});
