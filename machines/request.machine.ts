import { assign, fromCallback, sendParent, sendTo, setup, type AnyActorRef } from 'xstate';
import { type KernelPhase } from './kernel-phases';

/** What the machine needs of a request's state: the prepared error sub-request to invoke. */
export interface MachineExchange {
  readonly subRequest: MachineExchange | null;
}

/**
 * What an actor of the machine is: one that takes main requests, with a sub-request actor of its
 * own as a child, or that child, which takes the error sub-requests of its parent.
 */
export interface RequestMachineInput {
  readonly role: 'main' | 'sub';
}

/** Events the request machine accepts. */
export type RequestMachineEvent =
  | { type: 'request.received'; exchange: MachineExchange }
  | { type: 'listener.settled'; dispatch: number; ok: true }
  | { type: 'listener.settled'; dispatch: number; ok: false; error: unknown }
  | { type: 'controller.done'; result: unknown }
  | { type: 'controller.failed'; error: unknown }
  | { type: 'request.aborted' }
  | { type: 'subrequest.done' }
  | { type: 'body.finished' };

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

function subRequestOf(exchange: MachineExchange | null): MachineExchange {
  if (exchange === null || exchange.subRequest === null) throw new Error('error_sub_request entered without a prepared sub-request');
  return exchange.subRequest;
}

function subRequestActorOf(actor: AnyActorRef | null): AnyActorRef {
  if (actor === null) throw new Error('error_sub_request entered in a sub-request: a sub-request has no sub-request of its own');
  return actor;
}

const notProvided = (): never => {
  throw new Error('The request machine runs with the kernel implementations: use createKernelMachine().');
};

/** What a phase's exit checks once the phase's listeners ran; `done` always holds. */
export type PhaseCheck = 'hasError' | 'hasResponse' | 'hasController' | 'isSubRequest' | 'isErrorAlreadyRendered' | 'hasStreamedBody' | 'done';
type PhaseAction = 'failNoController' | 'resolveArguments' | 'failNoViewResponse' | 'renderMinimalError' | 'prepareErrorSubRequest' | 'sendResponse' | 'finishRequest' | 'reportSubRequest';

/**
 * A kernel phase: its listeners are dispatched on entry; while one of them is pending the phase
 * waits for `listener.settled`, and its exits hold only once every listener ran.
 */
function phase(
  name: KernelPhase,
  description: string,
  onError: OnListenerError,
  exits: readonly { guard?: PhaseCheck; target: string; actions?: PhaseAction | readonly PhaseAction[] }[],
) {
  return {
    description,
    entry: dispatch(name, onError),
    on: { 'listener.settled': { actions: 'resumeDispatch' as const } },
    always: exits.map(({ guard, target, actions }) => ({
      // One guard per exit, not and(): a phase's exits are checked on every request.
      guard: { type: 'isDispatched' as const, params: { check: guard ?? 'done' } },
      target,
      actions: actions === undefined ? [] : typeof actions === 'string' ? [actions] : [...actions],
    })),
  };
}

/**
 * Requests, one at a time, from the copied uWS request to the written response, through the
 * phases of Symfony's HttpKernel. The machine decides the order; src/kernel provides what each
 * step does (createKernelMachine) and the exchange it works on. An actor of it is long-lived: it
 * waits in `idle`, takes a request with `request.received`, and is idle again once the request is
 * over, ready for the next one (the kernel keeps a pool of them).
 *
 *   idle --request.received--> kernel.request → kernel.controller → kernel.controller_arguments
 *      → controller → (kernel.view) → kernel.response → kernel.finish_request → kernel.terminate → idle
 *      (the response is written on the way from kernel.finish_request to kernel.terminate; a
 *      streamed body goes through `streaming` until the server reports its end with `body.finished`)
 *   a listener's response at kernel.request → kernel.response
 *   any failing phase --error--> kernel.exception → error_sub_request: the actor's child, an actor
 *      of this same machine, runs the error controller through the same phases, from its own idle
 *      back to it, and tells its parent with `subrequest.done` → kernel.response …
 *   request.aborted (client gone) → aborted → kernel.terminate → idle
 *
 * A phase whose listener returned a promise waits in that phase for `listener.settled`; its
 * exits hold only once every listener ran (`isDispatched`, with the exit's own check). Synchronous
 * listeners never wait.
 */
export const requestMachine = setup({
    types: {
      context: {} as { exchange: MachineExchange | null; subRequest: AnyActorRef | null },
      input: {} as RequestMachineInput,
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
      acceptRequest: assign({ exchange: ({ event }) => (event.type === 'request.received' ? event.exchange : null) }),
      // An idle actor holds nothing of its last request: a pooled actor that waits long would
      // otherwise keep that request's whole state alive, scattered through the old heap.
      releaseRequest: assign({ exchange: null }),
      finishRequest: notProvided,
      // A sub-request actor tells its parent its request is over; the parent reads the outcome
      // from the sub-request's exchange.
      reportSubRequest: sendParent({ type: 'subrequest.done' }),
      // Leaving error_sub_request before the child answered (the client went away): the child
      // abandons the sub-request too, and is idle for the parent's next one. Ignored when idle.
      abortSubRequest: sendTo(({ context }) => subRequestActorOf(context.subRequest), { type: 'request.aborted' }),
    },
    guards: {
      isDispatched: (_: unknown, _params: { check: PhaseCheck }) => notProvided(),
      hasError: notProvided,
      hasResponse: notProvided,
      isControllerSettled: notProvided,
      isResponseResult: notProvided,
      hasSubRequestFailed: notProvided,
      isSubRequest: notProvided,
    },
    actors: {
      // Replaced by the provided machine itself (see createKernelMachine): the error
      // sub-request actor is a child actor of this same machine.
      handleSubRequest: fromCallback<RequestMachineEvent, RequestMachineInput>(() => notProvided()),
    },
  }).createMachine({
    id: 'request',
    description: 'HTTP requests, one at a time, through the kernel phases, from the copied request to the written response.',
    // The machine's own actor for error sub-requests, made once with a main actor (see
    // createKernelMachine for the `handleSubRequest` it is given): a sub-request has none.
    context: ({ input, spawn }) => ({
      exchange: null,
      subRequest: input.role === 'main' ? spawn('handleSubRequest', { id: 'subRequest', input: { role: 'sub' } }) : null,
    }),
    initial: 'idle',
    on: {
      'request.aborted': { target: '.aborted' },
    },
    states: {
      idle: {
        description: 'Between requests: the actor waits for the next one.',
        entry: 'releaseRequest',
        on: {
          'request.received': { target: to('kernel.request'), actions: 'acceptRequest' },
          // An abort that arrives after its request is over is nobody's.
          'request.aborted': {},
        },
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
        { guard: 'isSubRequest', target: 'idle', actions: ['finishRequest', 'reportSubRequest'] },
        // A streamed body goes out chunk by chunk: kernel.terminate waits for its end.
        { guard: 'hasStreamedBody', target: 'streaming', actions: 'sendResponse' },
        // Written once, inside cork(), as the main request leaves finish_request: no state of its own.
        { target: to('kernel.terminate'), actions: 'sendResponse' },
      ]),
      'kernel.exception': {
        ...phase('kernel.exception', 'An error escaped a phase: it replaces the response; listeners log it or answer; a sub-request will render it.', 'log', [
          // A sub-request that fails does not render its own error: its parent answers with a minimal 500.
          { guard: 'isSubRequest', target: 'idle', actions: ['finishRequest', 'reportSubRequest'] },
          { guard: 'isErrorAlreadyRendered', target: to('kernel.finish_request'), actions: 'renderMinimalError' },
          { guard: 'hasResponse', target: to('kernel.response') },
          { target: 'error_sub_request', actions: 'prepareErrorSubRequest' },
        ]),
        entry: ['takeError', dispatch('kernel.exception', 'log')],
      },
      error_sub_request: {
        description: 'The error is rendered by the child actor of this machine running the error controller through the same phases.',
        entry: [
          { type: 'recordState', params: { state: 'error_sub_request' } },
          sendTo(({ context }) => subRequestActorOf(context.subRequest), ({ context }) => ({ type: 'request.received' as const, exchange: subRequestOf(context.exchange) })),
        ],
        on: {
          'subrequest.done': [
            { guard: 'hasSubRequestFailed', target: to('kernel.response'), actions: 'renderMinimalError' },
            { target: to('kernel.response'), actions: 'useErrorSubResponse' },
          ],
          // The child stopped with an error of its own (a bug): the parent still answers.
          'xstate.error.actor.subRequest': { target: to('kernel.response'), actions: 'renderMinimalError' },
        },
        exit: 'abortSubRequest',
      },
      streaming: {
        description: 'The head is sent and the body streams to the client; the server reports when it is over (sent whole, failed, or cut short by the client).',
        entry: { type: 'recordState', params: { state: 'streaming' } },
        on: {
          'body.finished': { target: to('kernel.terminate') },
          // The server reports a client that leaves mid-body with body.finished; the request is past what an abort stops.
          'request.aborted': {},
        },
      },
      aborted: {
        description: 'The client went away before the response was written; pending work is abandoned.',
        entry: [{ type: 'recordState', params: { state: 'aborted' } }, 'markAborted'],
        always: [{ guard: 'isSubRequest', target: 'idle', actions: 'finishRequest' }, { target: to('kernel.terminate') }],
      },
      'kernel.terminate': phase('kernel.terminate', 'After the response is on the wire: the finished trace goes to the profile writer.', 'log', [
        { target: 'idle', actions: 'finishRequest' },
      ]),
    },
  });

export type RequestMachine = typeof requestMachine;
