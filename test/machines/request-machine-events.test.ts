import test from 'ava';
import { createActor } from 'xstate';
import { type KernelPhase } from '../../machines/kernel-phases';
import { requestMachine, type PhaseOutcome, type RequestMachineContext, type RequestMachineEvent } from '../../machines/request.machine';

// The request machine decides from the events it receives and its own context: the same request
// state, told different outcomes, takes different exits; a guard that read the request fails here.

/** A request state that throws on any read: what a guard must never look at. */
const untouchable = new Proxy(
  {},
  {
    get: (_, key) => {
      throw new Error(`a guard read the request's ${String(key)}`);
    },
  },
) as RequestMachineContext['exchange'];

interface Script {
  readonly outcomes?: Partial<Record<KernelPhase, PhaseOutcome>>;
  readonly controllerAnswers?: boolean;
}

/** The phases dispatched and the other steps taken, for one request whose outcomes `script` tells. */
function run(script: Script): string[] {
  const steps: string[] = [];
  const step = (name: string) => () => void steps.push(name);
  const machine = requestMachine.provide({
    actions: {
      dispatch: ({ self }, { phase }) => {
        steps.push(phase);
        self.send({ type: 'phase.done', outcome: script.outcomes?.[phase] ?? 'response', streamed: false });
      },
      callController: ({ self }) => {
        steps.push('controller');
        self.send({ type: 'controller.done', result: null, isResponse: script.controllerAnswers ?? true });
      },
      resumeDispatch: step('resumeDispatch'),
      recordState: () => undefined,
      takeError: step('takeError'),
      failNoController: step('failNoController'),
      resolveArguments: () => undefined,
      storeControllerResult: () => undefined,
      storeControllerError: step('storeControllerError'),
      failNoViewResponse: step('failNoViewResponse'),
      prepareErrorSubRequest: step('prepareErrorSubRequest'),
      useErrorSubResponse: step('useErrorSubResponse'),
      renderMinimalError: step('renderMinimalError'),
      sendResponse: step('sendResponse'),
      markAborted: step('markAborted'),
      finishRequest: step('finishRequest'),
    },
  });
  machine.implementations.actors['handleSubRequest'] = machine;
  const actor = createActor(machine, { input: { role: 'main' } });
  actor.subscribe({ error: (error) => steps.push(`error: ${String(error)}`) });
  actor.start();
  actor.send({ type: 'request.received', exchange: { subRequest: null } });
  steps.push(String(actor.getSnapshot().value));
  actor.stop();
  return steps;
}

test('a routed request goes through every phase, each ended by the phase.done its dispatcher sent', (t) => {
  const outcomes = { 'kernel.request': 'controller', 'kernel.controller': 'controller', 'kernel.controller_arguments': 'controller' } as const;
  t.deepEqual(run({ outcomes }), [
    'kernel.request',
    'kernel.controller',
    'kernel.controller_arguments',
    'controller',
    'kernel.response',
    'kernel.finish_request',
    'sendResponse',
    'kernel.terminate',
    'finishRequest',
    'idle',
  ]);
});

test('the same request told a response at kernel.request skips the controller', (t) => {
  t.deepEqual(run({ outcomes: { 'kernel.request': 'response' } }).slice(0, 3), ['kernel.request', 'kernel.response', 'kernel.finish_request']);
});

test('told neither response nor controller at kernel.request, the machine fails the request itself and handles the error', (t) => {
  t.deepEqual(run({ outcomes: { 'kernel.request': 'none' } }).slice(0, 5), ['kernel.request', 'failNoController', 'takeError', 'kernel.exception', 'kernel.response']);
});

test('a controller.done without a response goes to kernel.view, where no response fails the request', (t) => {
  const outcomes = { 'kernel.request': 'controller', 'kernel.controller': 'controller', 'kernel.controller_arguments': 'controller', 'kernel.view': 'none' } as const;
  t.deepEqual(run({ outcomes, controllerAnswers: false }).slice(3, 8), ['controller', 'kernel.view', 'failNoViewResponse', 'takeError', 'kernel.exception']);
});

test('an error at kernel.request goes to kernel.exception, and an answer there to kernel.response', (t) => {
  t.deepEqual(run({ outcomes: { 'kernel.request': 'error' } }).slice(0, 5), ['kernel.request', 'takeError', 'kernel.exception', 'kernel.response', 'kernel.finish_request']);
});

test("every guard of the request machine decides from the event and the machine's own context, never the request", (t) => {
  const events: RequestMachineEvent[] = [
    { type: 'phase.done', outcome: 'error', streamed: false },
    { type: 'phase.done', outcome: 'response', streamed: true },
    { type: 'phase.done', outcome: 'controller', streamed: false },
    { type: 'phase.done', outcome: 'none', streamed: false },
    { type: 'controller.done', result: untouchable, isResponse: true },
    { type: 'controller.failed', error: untouchable },
    { type: 'subrequest.done' },
    { type: 'request.aborted' },
  ];
  const guards = Object.entries(requestMachine.implementations.guards);
  t.deepEqual(guards.map(([name]) => name).sort(), ['hasController', 'hasError', 'hasResponse', 'hasStreamedBody', 'isErrorAlreadyRendered', 'isResponseResult', 'isSubRequest']);
  for (const role of ['main', 'sub'] as const) {
    const context: RequestMachineContext = { exchange: untouchable, subRequest: null, role, errorRendered: false };
    for (const [name, guard] of guards) {
      const check = guard as (args: { context: RequestMachineContext; event: RequestMachineEvent }, params: undefined) => boolean;
      for (const event of events) t.notThrows(() => check({ context, event }, undefined), `${name} on ${event.type}`);
    }
  }
});
