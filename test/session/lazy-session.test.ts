import test from 'ava';
import type Redis from 'ioredis';
import { LazySession } from '../../src/session/lazy-session';
import { RedisSessionStorage } from '../../src/session/redis-session-storage';
import { createSessionId } from '../../src/session/session-id';
import { type SessionData, type SessionStorage } from '../../src/session/session-storage';
import { cleanUpTestRedis, connectTestRedis, testKeyPrefix } from '../helpers/test-redis';

const prefix = testKeyPrefix();
let redis: Redis;
let storage: RedisSessionStorage;

/** The real Redis storage, recording which of its methods were called. */
class RecordingStorage implements SessionStorage {
  readonly calls: string[] = [];
  read(id: string): Promise<SessionData | null> {
    this.calls.push('read');
    return storage.read(id);
  }
  write(id: string, data: Readonly<SessionData>): Promise<void> {
    this.calls.push('write');
    return storage.write(id, data);
  }
  touch(id: string): Promise<void> {
    this.calls.push('touch');
    return storage.touch(id);
  }
  destroy(id: string): Promise<void> {
    this.calls.push('destroy');
    return storage.destroy(id);
  }
}

test.before(async () => {
  redis = await connectTestRedis();
  storage = new RedisSessionStorage(redis, { prefix, lifetime: 120 });
});

test.after.always(() => cleanUpTestRedis(redis, prefix));

test('nothing is read from Redis until start(); then the stored attributes are there', async (t) => {
  const id = createSessionId();
  await storage.write(id, { count: 1 });
  const recording = new RecordingStorage();
  const session = new LazySession(recording, id);
  // Changed after the session was created: if it had read at construction it would see 1.
  await storage.write(id, { count: 5 });
  t.deepEqual(recording.calls, []);
  t.false(session.isStarted);
  await session.start();
  t.deepEqual(recording.calls, ['read']);
  t.true(session.isStarted);
  t.is(session.id, id);
  t.is(session.get('count'), 5);
});

test('concurrent starts share one read', async (t) => {
  const recording = new RecordingStorage();
  const session = new LazySession(recording, createSessionId());
  await Promise.all([session.start(), session.start(), session.start()]);
  await session.start();
  t.deepEqual(recording.calls, ['read']);
});

test('using the session before start() throws rather than losing data', (t) => {
  const session = new LazySession(storage, null);
  t.throws(() => session.get('a'), { message: /await session\.start\(\)/ });
  t.throws(() => session.set('a', 1), { message: /await session\.start\(\)/ });
  t.is(session.usageCount, 0);
});

test('an id Redis does not know is replaced by a fresh one; no cookie id means no read', async (t) => {
  const unknown = createSessionId();
  const session = new LazySession(storage, unknown);
  await session.start();
  t.not(session.id, unknown);
  t.regex(session.id ?? '', /^[0-9a-f]{64}$/);
  t.is(session.requestId, unknown);

  const recording = new RecordingStorage();
  const fresh = new LazySession(recording, null);
  await fresh.start();
  t.deepEqual(recording.calls, []);
  t.regex(fresh.id ?? '', /^[0-9a-f]{64}$/);
});

test('a cookie value that is not a session id is ignored unread', async (t) => {
  const recording = new RecordingStorage();
  const session = new LazySession(recording, '../../etc/passwd*');
  t.is(session.requestId, null);
  t.is(session.id, null);
  await session.start();
  t.deepEqual(recording.calls, []);
});

test('get, set, remove and all count usage; set and remove mark the session dirty', async (t) => {
  const session = new LazySession(storage, null);
  await session.start();
  t.is(session.usageCount, 0);
  t.is(session.get('a'), undefined);
  t.false(session.isDirty);
  session.all();
  t.is(session.usageCount, 2);
  t.false(session.isDirty);
  session.set('a', 1);
  t.true(session.isDirty);
  t.deepEqual(session.all(), { a: 1 });
  t.is(session.usageCount, 4);
});

test('save writes a changed session, touches a read one, destroys an emptied one', async (t) => {
  const recording = new RecordingStorage();
  const session = new LazySession(recording, null);
  await session.save();
  t.deepEqual(recording.calls, [], 'never started: nothing to save');
  await session.start();
  session.set('count', 1);
  await session.save();
  const id = session.id ?? '';
  t.is(await redis.get(storage.key(id)), '{"count":1}');

  const again = new LazySession(recording, id);
  await again.start();
  again.get('count');
  await again.save();
  t.deepEqual(recording.calls.slice(-2), ['read', 'touch']);

  again.remove('count');
  await again.save();
  t.is(recording.calls.at(-1), 'destroy');
  t.is(await redis.exists(storage.key(id)), 0);
});

test('attribute names like __proto__ are kept as plain data', async (t) => {
  const session = new LazySession(storage, null);
  await session.start();
  session.set('__proto__', { polluted: true });
  await session.save();
  const reloaded = new LazySession(storage, session.id);
  await reloaded.start();
  t.deepEqual(reloaded.get('__proto__'), { polluted: true });
  t.is(({} as Record<string, unknown>)['polluted'], undefined);
});
