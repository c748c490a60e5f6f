import { type ExecutionContext } from 'ava';
import { createSessionId } from '../../src/session/session-id';
import { type SessionStorage } from '../../src/session/session-storage';

/** Makes a storage whose sessions live `lifetime` seconds without use. */
export type SessionStorageFactory = (lifetime: number) => SessionStorage;

type DeclareTest = (title: string, implementation: (t: ExecutionContext) => Promise<void>) => void;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The behaviour every SessionStorage implementation must have: Redis' and the one in memory alike. */
export function sessionStorageContract(test: DeclareTest, name: string, create: SessionStorageFactory): void {
  test(`${name}: a written session reads back as written; an unknown one reads as null`, async (t) => {
    const storage = create(120);
    const id = createSessionId();
    await storage.write(id, { count: 3, user: 'anna', nested: { roles: ['a'] } });
    t.deepEqual(await storage.read(id), { count: 3, user: 'anna', nested: { roles: ['a'] } });
    t.is(await storage.read(createSessionId()), null);
  });

  test(`${name}: what a request reads is its own copy, and a write replaces the whole session`, async (t) => {
    const storage = create(120);
    const id = createSessionId();
    const written = { count: 1 };
    await storage.write(id, written);
    written.count = 99;
    const read = await storage.read(id);
    if (read === null) return t.fail('the session was not stored');
    read['count'] = 42;
    t.deepEqual(await storage.read(id), { count: 1 });
    await storage.write(id, { other: true });
    t.deepEqual(await storage.read(id), { other: true });
  });

  test(`${name}: destroy removes a session; touch does not bring back one that is gone`, async (t) => {
    const storage = create(120);
    const id = createSessionId();
    await storage.write(id, { a: 1 });
    await storage.touch(id);
    t.deepEqual(await storage.read(id), { a: 1 });
    await storage.destroy(id);
    t.is(await storage.read(id), null);
    await storage.touch(id);
    t.is(await storage.read(id), null);
  });

  test(`${name}: a session unused for its lifetime expires; a touch restarts its lifetime`, async (t) => {
    const storage = create(2);
    const idle = createSessionId();
    const touched = createSessionId();
    await storage.write(idle, { a: 1 });
    await storage.write(touched, { b: 2 });
    await pause(1_200);
    await storage.touch(touched);
    await pause(1_200);
    t.is(await storage.read(idle), null, 'gone 2.4 s after its write');
    t.deepEqual(await storage.read(touched), { b: 2 }, 'kept: touched 1.2 s ago');
  });
}
