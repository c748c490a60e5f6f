import { fromPromise, sendTo, setup } from 'xstate';
import { type KernelPhase } from './kernel-phases';

/** What the machine needs of a request's state: the prepared error sub-request to invoke. */
export interface MachineExchange {
  readonly subRequest: MachineExchange | null;
}

/** Events the request machine accepts. */
export type RequestMachineEvent =
  | { type: 'request.received' }
  | { type: 'listener.settled'; dispatch: number; ok: true }
  | { type: 'listener.settled'; dispatch: number; ok: false; error: unknown }
  | { type: 'controller.done'; result: unknown }
  | { type: 'controller.failed'; error: unknown }
  | { type: 'request.aborted' };

/** What a listener's throw or rejection does in a phase: fail the request, or be logged. */
export type OnListenerError = 'fail' | 'log';

/**
 * State keys are the kernel phase names, which contain dots; XState reads a dot in a target as
 * a path separator, so targets escape it.
 */
function to(state: string): string {
  return state.replace(/\./g, '\\.');
}

function dispatch(phase: KernelPhase, onError: OnListenerError): { type: 'dispatch'; params: { phase: KernelPhase; onError: OnListenerError } } {
  return { type: 'dispatch', params: { phase, onError } };
}

function subRequestOf(exchange: MachineExchange): MachineExchange {
  if (exchange.subRequest === null) throw new Error('error_sub_request entered without a prepared sub-request');
  return exchange.subRequest;
}

const notProvided = (): never => {
  throw new Error('The request machine runs with the kernel implementations: use createKernelMachine().');
};

/** What a phase's exit checks once the phase's listeners ran; `done` always holds. */
export type PhaseCheck = 'hasError' | 'hasResponse' | 'hasController' | 'isSubRequest' | 'isErrorAlreadyRendered' | 'done';
type PhaseAction = 'failNoController' | 'resolveArguments' | 'failNoViewResponse' | 'renderMinimalError' | 'prepareErrorSubRequest' | 'sendResponse';

/**
 * A kernel phase: its listeners are dispatched on entry; while one of them is pending the phase
 * waits for `listener.settled`, and its exits hold only once every listener ran.
 */
function phase(name: KernelPhase, description: string, onError: OnListenerError, exits: readonly { guard?: PhaseCheck; target: string; actions?: PhaseAction }[]) {
  return {
    description,
    entry: dispatch(name, onError),
    on: { 'listener.settled': { actions: 'resumeDispatch' as const } },
    always: exits.map(({ guard, target, actions }) => ({
      // One guard per exit, not and(): a phase's exits are checked on every request.
      guard: { type: 'isDispatched' as const, params: { check: guard ?? 'done' } },
      target,
      actions: actions === undefined ? [] : [actions],
    })),
  };
}

/**
 * One request, from the copied uWS request to the written response, through the phases of
 * Symfony's HttpKernel. The machine decides the order; src/kernel provides what each step does
 * (createKernelMachine) and the exchange it works on.
 *
 *   received → kernel.request → kernel.controller → kernel.controller_arguments → controller
 *      → (kernel.view) → kernel.response → kernel.finish_request → kernel.terminate → done
 *      (the response is written on the way from kernel.finish_request to kernel.terminate)
 *   a listener's response at kernel.request → kernel.response
 *   any failing phase --error--> kernel.exception → error_sub_request (this same machine as a
 *      child, with the error controller) → kernel.response …
 *   request.aborted (client gone) → aborted → kernel.terminate → done
 *
 * A phase whose listener returned a promise waits in that phase for `listener.settled`; its
 * exits hold only once every listener ran (`isDispatched`, with the exit's own check). Synchronous
 * listeners never wait.
 */
export const requestMachine = setup({
    types: {
      context: {} as { exchange: MachineExchange },
      input: {} as MachineExchange,
      output: {} as MachineExchange,
      events: {} as RequestMachineEvent,
    },
    actions: {
      dispatch: (_: unknown, _params: { phase: KernelPhase; onError: OnListenerError }) => notProvided(),
      resumeDispatch: notProvided,
      recordState: (_: unknown, _params: { state: string }) => notProvided(),
      takeError: notProvided,
      failNoController: notProvided,
      resolveArguments: notProvided,
      callController: notProvided,
      storeControllerResult: notProvided,
      storeControllerError: notProvided,
      failNoViewResponse: notProvided,
      prepareErrorSubRequest: notProvided,
      useErrorSubResponse: notProvided,
      renderMinimalError: notProvided,
      sendResponse: notProvided,
      markAborted: notProvided,
      finishTrace: notProvided,
    },
    guards: {
      isDispatched: (_: unknown, _params: { check: PhaseCheck }) => notProvided(),
      hasError: notProvided,
      hasResponse: notProvided,
      isControllerSettled: notProvided,
      isResponseResult: notProvided,
      hasSubRequestFailed: notProvided,
    },
    actors: {
      // Replaced by the provided machine itself (see createKernelMachine): the error
      // sub-request is a child actor of this same machine.
      handleSubRequest: fromPromise<MachineExchange, MachineExchange>(async () => notProvided()),
    },
  }).createMachine({
    id: 'request',
    description: 'One HTTP request through the kernel phases, from the copied request to the written response.',
    context: ({ input }) => ({ exchange: input }),
    initial: 'received',
    on: {
      'request.aborted': { target: '.aborted' },
    },
    states: {
      received: {
        // XState defers the actions of the transitions taken while an actor starts: the phases,
        // whose guards read what their entry actions did, begin on the first event instead.
        description: 'The request was copied out of uWS; the machine starts itself on the next step.',
        entry: [{ type: 'recordState', params: { state: 'received' } }, sendTo(({ self }) => self, { type: 'request.received' })],
        on: { 'request.received': { target: to('kernel.request') } },
      },
      'kernel.request': phase('kernel.request', 'Session, locale and firewall handling, then route matching. A listener may answer at once.', 'fail', [
        { guard: 'hasError', target: to('kernel.exception') },
        { guard: 'hasResponse', target: to('kernel.response') },
        { guard: 'hasController', target: to('kernel.controller') },
        { target: to('kernel.exception'), actions: 'failNoController' },
      ]),
      'kernel.controller': phase('kernel.controller', 'A controller was found for the route; listeners may replace it.', 'fail', [
        { guard: 'hasError', target: to('kernel.exception') },
        { target: to('kernel.controller_arguments'), actions: 'resolveArguments' },
      ]),
      'kernel.controller_arguments': phase('kernel.controller_arguments', 'Arguments are resolved; listeners may change them.', 'fail', [
        { guard: 'hasError', target: to('kernel.exception') },
        { target: 'controller' },
      ]),
      controller: {
        description: 'The controller runs; an async one is awaited here.',
        entry: [{ type: 'recordState', params: { state: 'controller' } }, 'callController'],
        on: {
          'controller.done': [
            { guard: 'isResponseResult', target: to('kernel.response'), actions: 'storeControllerResult' },
            { target: to('kernel.view'), actions: 'storeControllerResult' },
          ],
          'controller.failed': { target: to('kernel.exception'), actions: 'storeControllerError' },
        },
        always: [
          { guard: 'hasError', target: to('kernel.exception') },
          { guard: 'hasResponse', target: to('kernel.response') },
          { guard: 'isControllerSettled', target: to('kernel.view') },
        ],
      },
      'kernel.view': phase('kernel.view', 'The controller returned data, not a response; a view listener must make one.', 'fail', [
        { guard: 'hasError', target: to('kernel.exception') },
        { guard: 'hasResponse', target: to('kernel.response') },
        { target: to('kernel.exception'), actions: 'failNoViewResponse' },
      ]),
      'kernel.response': phase('kernel.response', 'Response filtering: cache directives, profiler, robots directive, session save, remember-me.', 'fail', [
        { guard: 'hasError', target: to('kernel.exception') },
        { target: to('kernel.finish_request') },
      ]),
      'kernel.finish_request': phase('kernel.finish_request', 'Locale, router context, session, firewall and asset state are reset.', 'log', [
        { guard: 'isSubRequest', target: 'done' },
        // Written once, inside cork(), as the main request leaves finish_request: no state of its own.
        { target: to('kernel.terminate'), actions: 'sendResponse' },
      ]),
      'kernel.exception': {
        ...phase('kernel.exception', 'An error escaped a phase: it replaces the response; listeners log it or answer; a sub-request will render it.', 'log', [
          { guard: 'isSubRequest', target: 'failed' },
          { guard: 'isErrorAlreadyRendered', target: to('kernel.finish_request'), actions: 'renderMinimalError' },
          { guard: 'hasResponse', target: to('kernel.response') },
          { target: 'error_sub_request', actions: 'prepareErrorSubRequest' },
        ]),
        entry: ['takeError', dispatch('kernel.exception', 'log')],
      },
      error_sub_request: {
        description: 'The error is rendered by a child actor of this machine running the error controller through the same phases.',
        entry: { type: 'recordState', params: { state: 'error_sub_request' } },
        invoke: {
          id: 'subRequest',
          src: 'handleSubRequest',
          input: ({ context }) => subRequestOf(context.exchange),
          onDone: [
            { guard: 'hasSubRequestFailed', target: to('kernel.response'), actions: 'renderMinimalError' },
            { target: to('kernel.response'), actions: 'useErrorSubResponse' },
          ],
          onError: { target: to('kernel.response'), actions: 'renderMinimalError' },
        },
      },
      aborted: {
        description: 'The client went away before the response was written; pending work is abandoned.',
        entry: [{ type: 'recordState', params: { state: 'aborted' } }, 'markAborted'],
        always: { target: to('kernel.terminate') },
      },
      'kernel.terminate': phase('kernel.terminate', 'After the response is on the wire: the finished trace goes to the profile writer.', 'log', [{ target: 'done' }]),
      failed: {
        description: 'A sub-request could not render its response; the parent answers with a minimal 500.',
        type: 'final',
        entry: 'finishTrace',
      },
      done: {
        description: 'The request is over; the actor stops.',
        type: 'final',
        entry: 'finishTrace',
      },
    },
    output: ({ context }) => context.exchange,
  });

export type RequestMachine = typeof requestMachine;
