import test from 'ava';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as patchedXstate from 'xstate';
import { type KernelPhase } from '../../machines/kernel-phases';
import { profileWriterMachine } from '../../machines/profile-writer.machine';
import { requestMachine, type MachineExchange, type PhaseOutcome } from '../../machines/request.machine';
import { deferred, type Deferred } from '../helpers/deferred';

// Loupe's machines on the patched XState (patches/, applied by npm's `dependencies` script) and on XState as
// released (the `.orig` files the install kept), over the same events: every microstep, action,
// event and snapshot the inspection API reports must be the same.

const ROOT = path.resolve(__dirname, '..', '..');
const XSTATE_ENTRY = require.resolve('xstate');
const DIST = path.dirname(XSTATE_ENTRY);
const PATCH = readFileSync(path.join(ROOT, 'patches', 'xstate+5.33.3.patch'), 'utf8');
const MARKER = 'Loupe patch:';

/** Each file the patch changes (relative to dist/) with the lines it adds. */
const PATCHED_FILES = PATCH.split(/^diff --git /m).slice(1).map((section) => ({
  name: /^\+\+\+ b\/node_modules\/xstate\/dist\/(\S+)$/m.exec(section)?.[1] ?? '',
  added: section.split('\n').filter((line) => line.startsWith('+') && !line.startsWith('+++')).map((line) => line.slice(1)),
}));

interface Flavour {
  readonly xstate: typeof patchedXstate;
  readonly requestMachine: typeof requestMachine;
  readonly profileWriterMachine: typeof profileWriterMachine;
}

/** Requires `file` afresh with `xstateModule` standing for 'xstate'; the require cache is left as it was. */
function requireWith<T>(xstateModule: NodeJS.Module, file: string): T {
  const saved = { xstate: require.cache[XSTATE_ENTRY], file: require.cache[file] };
  const restore = (key: string, entry: NodeJS.Module | undefined): void => {
    if (entry === undefined) delete require.cache[key];
    else require.cache[key] = entry;
  };
  delete require.cache[file];
  require.cache[XSTATE_ENTRY] = xstateModule;
  try {
    return require(file) as T;
  } finally {
    restore(XSTATE_ENTRY, saved.xstate);
    restore(file, saved.file);
  }
}

/** XState as released: the installed dist, with the pristine copies in place of the patched files. */
function loadReleasedFlavour(): Flavour {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'loupe-xstate-'));
  try {
    for (const name of readdirSync(DIST)) if (name.endsWith('.cjs.js')) copyFileSync(path.join(DIST, name), path.join(dir, name));
    for (const { name } of PATCHED_FILES) copyFileSync(path.join(DIST, `${name}.orig`), path.join(dir, name));
    const entry = path.join(dir, 'xstate.cjs.js');
    const xstate = require(entry) as typeof patchedXstate;
    const module = require.cache[entry];
    if (module === undefined) throw new Error(`${entry} was required but is not in the require cache`);
    return {
      xstate,
      requestMachine: requireWith<{ requestMachine: typeof requestMachine }>(module, require.resolve('../../machines/request.machine')).requestMachine,
      profileWriterMachine: requireWith<{ profileWriterMachine: typeof profileWriterMachine }>(module, require.resolve('../../machines/profile-writer.machine')).profileWriterMachine,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PATCHED: Flavour = { xstate: patchedXstate, requestMachine, profileWriterMachine };
const RELEASED = loadReleasedFlavour();

/**
 * What the inspection API reports, as plain data: actors and the test's exchanges are named by
 * label (in order of appearance), so that references compare across the two runs.
 */
class Recorder {
  readonly entries: Record<string, unknown>[] = [];
  readonly #labels = new Map<object, string>();

  label(object: object, name: string): void {
    this.#labels.set(object, name);
  }

  readonly inspect = (event: patchedXstate.InspectionEvent): void => {
    const actor = this.describe(event.actorRef);
    if (event.type === '@xstate.microstep') {
      const transitions = event._transitions.map((t) => `${t.source.id} -> ${(t.target ?? []).map((s) => s.id).join(',')}`);
      this.entries.push({ microstep: actor, event: event.event.type, ...this.#snapshot(event.snapshot), transitions });
    } else if (event.type === '@xstate.action') this.entries.push({ action: actor, type: event.action.type, params: this.describe(event.action.params) });
    else if (event.type === '@xstate.event') this.entries.push({ event: actor, from: this.describe(event.sourceRef), data: this.describe(event.event) });
    else if (event.type === '@xstate.snapshot') this.entries.push({ snapshot: actor, event: event.event.type, ...this.#snapshot(event.snapshot) });
    else this.entries.push({ [event.type]: actor });
  };

  #snapshot(snapshot: unknown): Record<string, unknown> {
    const { status, value, context, output, error } = snapshot as Record<string, unknown>;
    return { status, value, context: this.describe(context), output: this.describe(output), error: this.describe(error) };
  }

  describe(value: unknown, depth = 0): unknown {
    if (typeof value === 'function') return 'function';
    if (value === null || typeof value !== 'object') return value;
    const known = this.#labels.get(value);
    if (known !== undefined) return known;
    if ('sessionId' in value && 'send' in value) {
      this.#labels.set(value, `actor ${this.#labels.size}`);
      return this.#labels.get(value);
    }
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (depth > 3) return '…';
    if (Array.isArray(value)) return value.map((item: unknown) => this.describe(item, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.describe(item, depth + 1)]));
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** What a request does, as a test scripts it; its error sub-request renders with `sub` (default: routed). */
interface Plan {
  readonly routed?: boolean;
  readonly controller?: 'response' | 'data' | 'nothing' | 'throws' | 'async';
  readonly answerAt?: KernelPhase;
  readonly failAt?: KernelPhase;
  readonly asyncAt?: KernelPhase;
  /** The response's body is streamed: the request waits in `streaming` for `body.finished`. */
  readonly streamed?: boolean;
  readonly sub?: Plan;
}

/** The state of one request that the actions change and tell the machine about, as the kernel's Exchange. */
interface FakeExchange extends MachineExchange {
  readonly plan: Plan;
  readonly parent: FakeExchange | null;
  subRequest: FakeExchange | null;
  routed: boolean;
  pending: boolean;
  controllerResult: unknown;
  response: string | null;
  error: string | null;
}

type Step = { request: Plan } | { settle: boolean } | { done: unknown; to?: 'sub' } | { failed: string } | { abort: true } | { bodyFinished: true };

/** The request machine with implementations that play each request's plan, as the kernel's would. */
function kernelMachine(flavour: Flavour, recorder: Recorder) {
  const exchangeOf = ({ exchange }: { exchange: MachineExchange | null }): FakeExchange => exchange as FakeExchange;
  const outcomeOf = (x: FakeExchange): PhaseOutcome => (x.error !== null ? 'error' : x.response !== null ? 'response' : x.routed ? 'controller' : 'none');
  const streamedOf = (x: FakeExchange): boolean => x.plan.streamed === true && x.response !== null;
  const machine = flavour.requestMachine.provide({
    actions: {
      dispatch: ({ context, self }, { phase, onError }) => {
        const x = exchangeOf(context);
        if (phase === 'kernel.request') x.routed = x.plan.routed ?? true;
        if (phase === 'kernel.view' && x.controllerResult !== undefined) x.response = 'view';
        if (phase === x.plan.answerAt) x.response = `answered at ${phase}`;
        if (phase === x.plan.failAt && onError === 'fail') x.error = `failed at ${phase}`;
        if (phase === x.plan.asyncAt) x.pending = true;
        else self.send({ type: 'phase.done', outcome: outcomeOf(x), streamed: streamedOf(x) });
      },
      resumeDispatch: ({ context, event, self }) => {
        const x = exchangeOf(context);
        x.pending = false;
        if (event.type === 'listener.settled' && !event.ok) x.error = String(event.error);
        self.send({ type: 'phase.done', outcome: outcomeOf(x), streamed: streamedOf(x) });
      },
      recordState: () => undefined,
      resolveArguments: () => undefined,
      markAborted: () => undefined,
      finishRequest: () => undefined,
      takeError: ({ context }) => Object.assign(exchangeOf(context), { error: null, response: null }),
      failNoController: ({ context }) => void (exchangeOf(context).error = 'no controller'),
      callController: ({ context, self }) => {
        const kind = exchangeOf(context).plan.controller ?? 'response';
        if (kind === 'response') self.send({ type: 'controller.done', result: 'controller', isResponse: true });
        else if (kind === 'data') self.send({ type: 'controller.done', result: { hello: 'world' }, isResponse: false });
        else if (kind === 'nothing') self.send({ type: 'controller.done', result: undefined, isResponse: false });
        else if (kind === 'throws') self.send({ type: 'controller.failed', error: 'controller threw' });
      },
      storeControllerResult: ({ context, event }) => {
        const x = exchangeOf(context);
        if (event.type === 'controller.done' && typeof event.result === 'string') x.response = event.result;
        else if (event.type === 'controller.done') x.controllerResult = event.result;
      },
      storeControllerError: ({ context, event }) => {
        exchangeOf(context).error = event.type === 'controller.failed' ? String(event.error) : 'failed';
      },
      failNoViewResponse: ({ context }) => void (exchangeOf(context).error = 'no view response'),
      prepareErrorSubRequest: ({ context }) => {
        const x = exchangeOf(context);
        x.subRequest = newExchange(recorder, `${String(recorder.describe(x))}'s sub-request`, x.plan.sub ?? {}, x);
      },
      useErrorSubResponse: ({ context }) => void (exchangeOf(context).response = exchangeOf(context).subRequest?.response ?? 'minimal'),
      renderMinimalError: ({ context }) => Object.assign(exchangeOf(context), { error: null, response: 'minimal 500' }),
      sendResponse: ({ context }) => void (exchangeOf(context).response ??= 'minimal'),
    },
  });
  machine.implementations.actors['handleSubRequest'] = machine;
  return machine;
}

function newExchange(recorder: Recorder, label: string, plan: Plan, parent: FakeExchange | null): FakeExchange {
  const exchange: FakeExchange = { plan, parent, subRequest: null, routed: false, pending: false, controllerResult: undefined, response: null, error: null };
  recorder.label(exchange, label);
  return exchange;
}

/** Each list is one request on the same long-lived actor, and what happens to it afterwards. */
const REQUESTS: readonly (readonly Step[])[] = [
  [{ request: {} }],
  [{ request: { controller: 'data' } }],
  [{ request: { controller: 'nothing' } }],
  [{ request: { routed: false } }],
  [{ request: { answerAt: 'kernel.request' } }],
  [{ request: { failAt: 'kernel.response' } }],
  [{ request: { failAt: 'kernel.controller_arguments' } }],
  [{ request: { asyncAt: 'kernel.controller' } }, { settle: true }],
  [{ request: { asyncAt: 'kernel.request' } }, { settle: false }],
  [{ request: { controller: 'async' } }, { done: 'async response' }],
  [{ request: { controller: 'async' } }, { done: { data: 1 } }],
  [{ request: { controller: 'async' } }, { failed: 'rejected' }],
  [{ request: { controller: 'async' } }, { abort: true }, { done: 'too late' }],
  [{ request: { routed: false, sub: { controller: 'throws' } } }],
  [{ request: { routed: false, sub: { controller: 'async' } } }, { done: 'error page', to: 'sub' }],
  [{ request: { routed: false, sub: { controller: 'async' } } }, { abort: true }],
  [{ request: {} }, { abort: true }],
  [{ request: { streamed: true } }, { abort: true }, { bodyFinished: true }],
];

function runRequestMachine(flavour: Flavour): { entries: Record<string, unknown>[]; finals: unknown[] } {
  const recorder = new Recorder();
  const actor = flavour.xstate.createActor(kernelMachine(flavour, recorder), { input: { role: 'main' }, inspect: recorder.inspect });
  actor.subscribe({ error: (error) => recorder.entries.push({ error: String(error) }) });
  actor.start();
  const finals: unknown[] = [];
  for (const [index, steps] of REQUESTS.entries()) {
    for (const step of steps) {
      if ('request' in step) actor.send({ type: 'request.received', exchange: newExchange(recorder, `request ${index}`, step.request, null) });
      else if ('settle' in step) actor.send(step.settle ? { type: 'listener.settled', dispatch: 0, ok: true } : { type: 'listener.settled', dispatch: 0, ok: false, error: 'listener rejected' });
      else if ('done' in step) (step.to === 'sub' ? actor.getSnapshot().children.subRequest : actor)?.send({ type: 'controller.done', result: step.done, isResponse: typeof step.done === 'string' });
      else if ('failed' in step) actor.send({ type: 'controller.failed', error: step.failed });
      else if ('bodyFinished' in step) actor.send({ type: 'body.finished' });
      else actor.send({ type: 'request.aborted' });
    }
    finals.push(actor.getSnapshot().value);
  }
  actor.stop();
  return { entries: recorder.entries, finals };
}

/** The profile writer through each of its states, with promises the test settles and a simulated clock. */
async function runProfileWriter(flavour: Flavour): Promise<{ entries: Record<string, unknown>[]; status: string }> {
  const recorder = new Recorder();
  const world = { queued: 0, ready: false, writes: [] as Deferred[] };
  const settleNext = async (ok: boolean): Promise<void> => {
    const write = world.writes.shift();
    if (ok) write?.resolve();
    else write?.reject(new Error('write failed'));
    await settle();
  };
  const promised = flavour.xstate.fromPromise(() => {
    const write = deferred();
    world.writes.push(write);
    return write.promise;
  });
  const machine = flavour.profileWriterMachine.provide({
    actions: { dropQueued: () => void (world.queued = 0), holdFailedBatch: () => undefined },
    guards: { hasQueued: () => world.queued > 0, isStorageReady: () => world.ready },
    actors: { writeBatch: promised, recover: promised },
  });
  const clock = new flavour.xstate.SimulatedClock();
  const actor = flavour.xstate.createActor(machine, { clock, inspect: recorder.inspect });
  actor.subscribe({ error: (error) => recorder.entries.push({ error: String(error) }) });
  actor.start();
  world.queued = 2;
  actor.send({ type: 'profiles.queued' });
  await settleNext(true); // still queued: writing again (reenter)
  world.queued = 0;
  await settleNext(true);
  actor.send({ type: 'storage.lost' });
  clock.increment(1_000); // probing, not ready: unavailable again
  world.ready = true;
  clock.increment(1_000); // probing, ready: recovering
  await settleNext(true);
  world.queued = 1;
  actor.send({ type: 'profiles.queued' });
  await settleNext(false);
  actor.send({ type: 'storage.ready' });
  await settleNext(false);
  actor.send({ type: 'writer.stop' });
  return { entries: recorder.entries, status: actor.getSnapshot().status };
}

/** The state values the microsteps reached, sorted. */
const statesReached = (entries: Record<string, unknown>[]): string[] => [...new Set(entries.filter((entry) => 'microstep' in entry).map((entry) => String(entry['value'])))].sort();

test('the XState Loupe loads carries the patch, and the install kept the released files beside it', (t) => {
  t.is((require('xstate/package.json') as { version: string }).version, '5.33.3');
  t.true(PATCHED_FILES.length >= 2, 'the patch changes the CommonJS build and its development variant');
  for (const { name, added } of PATCHED_FILES) {
    const installed = readFileSync(path.join(DIST, name), 'utf8');
    t.deepEqual(added.filter((line) => !installed.includes(line)), [], `${name} has every line the patch adds`);
    t.false(readFileSync(path.join(DIST, `${name}.orig`), 'utf8').includes(MARKER), `${name}.orig is the released file`);
  }
  t.true(PATCHED_FILES.some(({ name }) => require.cache[path.join(DIST, name)] !== undefined), "require('xstate') runs a patched file");
  t.not(RELEASED.xstate.createActor, PATCHED.xstate.createActor);
});

test('the request machine runs every request the same on the patched XState as on the released one', (t) => {
  const released = runRequestMachine(RELEASED);
  const patched = runRequestMachine(PATCHED);
  t.deepEqual(patched.finals, REQUESTS.map(() => 'idle'), 'every request ends with the actor idle');
  t.deepEqual(statesReached(patched.entries), Object.keys(requestMachine.states).sort(), 'the requests go through every state');
  t.deepEqual(patched.entries, released.entries);
});

test('the profile writer runs the same on the patched XState as on the released one', async (t) => {
  const released = await runProfileWriter(RELEASED);
  const patched = await runProfileWriter(PATCHED);
  t.is(patched.status, 'done');
  t.deepEqual(statesReached(patched.entries), Object.keys(profileWriterMachine.states).sort(), 'the writer goes through every state');
  t.deepEqual(patched.entries, released.entries);
});

test('snapshots have the same tags on the patched XState as on the released one; an empty set of them refuses changes', (t) => {
  const tagsAlong = ({ xstate }: Flavour): { tags: string[]; hasTag: boolean; json: unknown }[] => {
    const actor = xstate.createActor(xstate.createMachine({ initial: 'plain', states: { plain: { on: { tag: 'tagged' } }, tagged: { tags: ['busy'], on: { untag: 'plain' } } } }));
    actor.start();
    const seen = [];
    for (const type of ['start', 'tag', 'untag']) {
      if (type !== 'start') actor.send({ type });
      const snapshot = actor.getSnapshot();
      seen.push({ tags: [...snapshot.tags], hasTag: snapshot.hasTag('busy'), json: (snapshot.toJSON() as { tags: unknown }).tags });
    }
    return seen;
  };
  const patched = tagsAlong(PATCHED);
  t.deepEqual(patched, tagsAlong(RELEASED));
  t.deepEqual(
    patched.map(({ tags }) => tags),
    [[], ['busy'], []],
  );
  const untagged = PATCHED.xstate.createActor(PATCHED.xstate.createMachine({ initial: 'plain', states: { plain: {} } })).start().getSnapshot();
  t.true(untagged.tags instanceof Set);
  t.throws(() => untagged.tags.add('sneaked'), { instanceOf: TypeError });
  t.is(untagged.tags.size, 0);
});
