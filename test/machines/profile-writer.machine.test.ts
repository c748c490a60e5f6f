import test from 'ava';
import { createActor, fromPromise, type Actor } from 'xstate';
import { profileWriterMachine } from '../../machines/profile-writer.machine';
import { deferred, type Deferred } from '../helpers/deferred';

/** Lets settled promises reach the actor. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Harness {
  readonly actor: Actor<typeof profileWriterMachine>;
  /** One per writeBatch invocation, settled by the test. */
  readonly writes: Deferred[];
  /** One per recover invocation, settled by the test. */
  readonly tombstones: Deferred[];
  /** Actions run, in order; holdFailedBatch with the error it was given. */
  readonly actions: string[];
  /** What the hasQueued guard answers. */
  queued: number;
  readonly errors: unknown[];
  state(): string;
}

/** The machine with test implementations: actors whose promises the test settles. */
function start(queued = 0): Harness {
  const writes: Deferred[] = [];
  const tombstones: Deferred[] = [];
  const actions: string[] = [];
  const errors: unknown[] = [];
  const harness: Omit<Harness, 'actor' | 'state'> = { writes, tombstones, actions, errors, queued };
  const machine = profileWriterMachine.provide({
    actions: {
      dropQueued: () => {
        actions.push(`dropQueued(${harness.queued})`);
        harness.queued = 0;
      },
      holdFailedBatch: ({ event }) => {
        actions.push(`holdFailedBatch(${'error' in event ? String(event.error) : '?'})`);
      },
    },
    guards: { hasQueued: () => harness.queued > 0 },
    actors: {
      writeBatch: fromPromise(() => {
        const write = deferred();
        writes.push(write);
        return write.promise;
      }),
      recover: fromPromise(() => {
        const write = deferred();
        tombstones.push(write);
        return write.promise;
      }),
    },
  });
  const actor = createActor(machine);
  actor.subscribe({ error: (error) => errors.push(error) });
  actor.start();
  return Object.assign(harness, { actor, state: () => String(actor.getSnapshot().value) });
}

test('every state says what it is for', (t) => {
  const states = Object.entries(profileWriterMachine.states);
  t.deepEqual(
    states.map(([name]) => name),
    ['idle', 'writing', 'unavailable', 'probing', 'recovering', 'stopped'],
  );
  for (const [name, node] of states) t.true((node.description ?? '').length > 0, `${name} has a description`);
});

test('it starts idle and writes nothing until profiles are queued', async (t) => {
  const h = start();
  t.is(h.state(), 'idle');
  await settle();
  t.is(h.writes.length, 0);
  h.queued = 1;
  h.actor.send({ type: 'profiles.queued' });
  t.is(h.state(), 'writing');
  t.is(h.writes.length, 1);
  t.deepEqual(h.errors, []);
});

test('a batch done with more queued starts the next batch; done with nothing queued is idle', async (t) => {
  const h = start();
  h.queued = 3;
  h.actor.send({ type: 'profiles.queued' });
  h.writes[0]?.resolve();
  await settle();
  t.is(h.state(), 'writing');
  t.is(h.writes.length, 2, 'writing was re-entered: a new batch is written');
  h.queued = 0;
  h.writes[1]?.resolve();
  await settle();
  t.is(h.state(), 'idle');
  t.is(h.writes.length, 2);
  t.deepEqual(h.actions, []);
});

test('profiles queued while a batch is written wait for it: one batch in flight at a time', async (t) => {
  const h = start();
  h.queued = 1;
  h.actor.send({ type: 'profiles.queued' });
  h.actor.send({ type: 'profiles.queued' });
  h.actor.send({ type: 'profiles.queued' });
  t.is(h.writes.length, 1);
  h.writes[0]?.resolve();
  await settle();
  t.is(h.writes.length, 2);
});

test('a failed batch is held with its error (Redis may still run it) and the writer becomes unavailable, dropping the rest', async (t) => {
  const h = start();
  h.queued = 5;
  h.actor.send({ type: 'profiles.queued' });
  h.writes[0]?.reject(new Error('Connection is closed.'));
  await settle();
  t.is(h.state(), 'unavailable');
  t.deepEqual(h.actions, ['holdFailedBatch(Error: Connection is closed.)', 'dropQueued(5)']);
  t.deepEqual(h.errors, [], 'a failed write is a transition, not an actor error');
});

test('while unavailable, arriving profiles are dropped at once and nothing is written', async (t) => {
  const h = start();
  h.actor.send({ type: 'storage.lost' });
  t.is(h.state(), 'unavailable');
  h.queued = 1;
  h.actor.send({ type: 'profiles.queued' });
  h.queued = 2;
  h.actor.send({ type: 'profiles.queued' });
  await settle();
  t.is(h.state(), 'unavailable');
  t.deepEqual(h.actions, ['dropQueued(0)', 'dropQueued(1)', 'dropQueued(2)']);
  t.is(h.writes.length, 0);
});

test('storage.ready while unavailable recovers (tombstones first), then goes idle', async (t) => {
  const h = start();
  h.actor.send({ type: 'storage.lost' });
  h.actor.send({ type: 'storage.ready' });
  t.is(h.state(), 'recovering');
  t.is(h.tombstones.length, 1);
  h.tombstones[0]?.resolve();
  await settle();
  t.is(h.state(), 'idle');
  t.is(h.writes.length, 0);
});

test('profiles queued while recovering are written once the tombstones are', async (t) => {
  const h = start();
  h.actor.send({ type: 'storage.lost' });
  h.actor.send({ type: 'storage.ready' });
  h.queued = 2;
  h.actor.send({ type: 'profiles.queued' });
  t.is(h.state(), 'recovering', 'queued profiles wait, they are not dropped');
  t.deepEqual(h.actions, ['dropQueued(0)']);
  h.tombstones[0]?.resolve();
  await settle();
  t.is(h.state(), 'writing');
  t.is(h.writes.length, 1);
});

test('recovering falls back to unavailable when the tombstones fail or Redis is lost again', async (t) => {
  const failed = start();
  failed.actor.send({ type: 'storage.lost' });
  failed.actor.send({ type: 'storage.ready' });
  failed.tombstones[0]?.reject(new Error('NOSCRIPT'));
  await settle();
  t.is(failed.state(), 'unavailable');

  const lost = start();
  lost.actor.send({ type: 'storage.lost' });
  lost.actor.send({ type: 'storage.ready' });
  lost.actor.send({ type: 'storage.lost' });
  t.is(lost.state(), 'unavailable');
  lost.tombstones[0]?.resolve();
  await settle();
  t.is(lost.state(), 'unavailable', 'the abandoned tombstone write does not move it');
});

test('storage.lost makes an idle writer unavailable; storage.ready while idle changes nothing', (t) => {
  const h = start();
  h.actor.send({ type: 'storage.ready' });
  t.is(h.state(), 'idle');
  t.is(h.tombstones.length, 0);
  h.actor.send({ type: 'storage.lost' });
  t.is(h.state(), 'unavailable');
});

test('storage.lost during a write leaves the outcome to the write itself', async (t) => {
  const h = start();
  h.queued = 1;
  h.actor.send({ type: 'profiles.queued' });
  h.actor.send({ type: 'storage.lost' });
  t.is(h.state(), 'writing');
  h.queued = 0;
  h.writes[0]?.resolve();
  await settle();
  t.is(h.state(), 'idle');
});

test('an idle writer that finds profiles already queued writes them', (t) => {
  const h = start(1);
  t.is(h.state(), 'writing');
  t.is(h.writes.length, 1);
});

for (const setUp of ['idle', 'writing', 'unavailable', 'recovering'] as const) {
  test(`writer.stop from ${setUp} is final: the actor is done and ignores what follows`, async (t) => {
    const h = start();
    if (setUp === 'writing') {
      h.queued = 1;
      h.actor.send({ type: 'profiles.queued' });
    }
    if (setUp === 'unavailable' || setUp === 'recovering') h.actor.send({ type: 'storage.lost' });
    if (setUp === 'recovering') h.actor.send({ type: 'storage.ready' });
    t.is(h.state(), setUp);
    h.actor.send({ type: 'writer.stop' });
    t.is(h.state(), 'stopped');
    t.is(h.actor.getSnapshot().status, 'done');
    h.queued = 1;
    h.writes[0]?.resolve();
    h.tombstones[0]?.resolve();
    h.actor.send({ type: 'profiles.queued' });
    await settle();
    t.is(h.state(), 'stopped');
    t.is(h.writes.length, setUp === 'writing' ? 1 : 0);
    t.deepEqual(h.errors, []);
  });
}

test('without its implementations the machine fails loudly instead of writing nothing', (t) => {
  const actor = createActor(profileWriterMachine);
  const errors: unknown[] = [];
  actor.subscribe({ error: (error) => errors.push(error) });
  actor.start();
  t.is(actor.getSnapshot().status, 'error');
  t.regex(String(errors[0]), /runs with its implementations: use ProfileWriter/);
});
