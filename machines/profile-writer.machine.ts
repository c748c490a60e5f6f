import { fromPromise, setup } from 'xstate';

/** Events the profile writer accepts. */
export type ProfileWriterEvent =
  | { type: 'profiles.queued' }
  | { type: 'storage.ready' }
  | { type: 'storage.lost' }
  | { type: 'writer.stop' };

const notProvided = (): never => {
  throw new Error('The profile writer machine runs with its implementations: use ProfileWriter.');
};

/**
 * The long-lived actor that stores finished profiles: it writes queued profiles in batches, one
 * batch in flight at a time (as long as profiles keep coming, without leaving `writing`), and
 * while the storage (Redis) is unreachable drops what arrives (counting it) until it is back. A
 * batch whose write failed is held, not counted: it may have run all the same (a timeout), so
 * recovering asks the storage for its outcome first. The queue itself lives in
 * src/profiler/write/profile-writer.ts. A storage in memory is never lost: its writer only goes
 * between idle and writing.
 *
 *   idle --profiles.queued--> writing --done--> (more queued ? writing : idle)
 *   writing --failed--> unavailable (batch held) ;  idle --storage.lost--> unavailable
 *   unavailable --storage.ready, or every second while connected--> recovering (the held batch's
 *   outcome, tombstones for dropped tokens) --> writing | idle
 */
export const profileWriterMachine = setup({
  types: { events: {} as ProfileWriterEvent },
  actions: {
    dropQueued: notProvided,
    holdFailedBatch: notProvided,
  },
  guards: {
    hasQueued: notProvided,
    isStorageReady: notProvided,
  },
  delays: {
    RETRY_DELAY: 1_000,
  },
  actors: {
    writeBatch: fromPromise<void>(async () => notProvided()),
    recover: fromPromise<void>(async () => notProvided()),
  },
}).createMachine({
  id: 'profileWriter',
  description: 'Stores finished profiles in batches, off the request path.',
  initial: 'idle',
  on: { 'writer.stop': { target: '.stopped' } },
  states: {
    idle: {
      description: 'Nothing queued; waiting for profiles.',
      always: { guard: 'hasQueued', target: 'writing' },
      on: {
        'profiles.queued': { target: 'writing' },
        'storage.lost': { target: 'unavailable' },
      },
    },
    writing: {
      description: 'Queued profiles are being written to the storage, one batch at a time, until none is left.',
      invoke: {
        src: 'writeBatch',
        onDone: [{ guard: 'hasQueued', target: 'writing', reenter: true }, { target: 'idle' }],
        onError: { target: 'unavailable', actions: 'holdFailedBatch' },
      },
    },
    unavailable: {
      description: 'The storage cannot be written: queued and arriving profiles are dropped and counted. Checked again every second.',
      entry: 'dropQueued',
      on: {
        'profiles.queued': { actions: 'dropQueued' },
        'storage.ready': { target: 'recovering' },
      },
      // A write can fail while the connection stays up (a timeout, an OOM): then no `ready` comes.
      after: { RETRY_DELAY: { target: 'probing' } },
    },
    probing: {
      description: 'Is the connection up again? Then recover; else wait another second.',
      always: [{ guard: 'isStorageReady', target: 'recovering' }, { target: 'unavailable' }],
    },
    recovering: {
      description: 'The storage is back: the held batch is counted as the storage says it ended, tokens handed out meanwhile are marked as dropped, then writing resumes.',
      invoke: {
        src: 'recover',
        onDone: { target: 'idle' },
        onError: { target: 'unavailable' },
      },
      on: { 'storage.lost': { target: 'unavailable' } },
    },
    stopped: {
      description: 'The server is shutting down; nothing more is written.',
      type: 'final',
    },
  },
});
