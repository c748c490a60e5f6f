import test from 'ava';
import { MemorySessionStorage } from '../../src/session/memory-session-storage';
import { createSessionId } from '../../src/session/session-id';
import { sessionStorageContract } from './session-storage-contract';

sessionStorageContract(test, 'MemorySessionStorage', (lifetime) => new MemorySessionStorage({ lifetime }));

/** A clock the test moves. */
function clock(): { now: () => number; advance: (seconds: number) => void } {
  let ms = 1_000_000;
  return { now: () => ms, advance: (seconds) => void (ms += seconds * 1000) };
}

test('past maxSessions the session used least recently is dropped, not one touched since', async (t) => {
  const storage = new MemorySessionStorage({ lifetime: 600, maxSessions: 3 });
  const [a, b, c, d] = [createSessionId(), createSessionId(), createSessionId(), createSessionId()];
  await storage.write(a, { n: 'a' });
  await storage.write(b, { n: 'b' });
  await storage.write(c, { n: 'c' });
  await storage.touch(a);
  await storage.write(d, { n: 'd' });
  t.is(storage.size, 3);
  t.is(await storage.read(b), null, 'b was used least recently');
  for (const [id, n] of [[a, 'a'], [c, 'c'], [d, 'd']] as const) t.deepEqual(await storage.read(id), { n });
});

test('expired sessions are removed as others are written, so that a process that stops using them does not keep them', async (t) => {
  const time = clock();
  const storage = new MemorySessionStorage({ lifetime: 60, now: time.now });
  for (let i = 0; i < 100; i++) await storage.write(createSessionId(), { i });
  time.advance(30);
  const recent = createSessionId();
  await storage.write(recent, { recent: true });
  t.is(storage.size, 101, 'none expired yet');
  time.advance(31);
  await storage.write(createSessionId(), { later: true });
  t.is(storage.size, 2, 'the 100 idle for 61 s are gone; the one written 31 s ago and the new one stay');
  t.deepEqual(await storage.read(recent), { recent: true });
});
