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

/**
 * How a phase ended once every one of its listeners ran, the first that holds: the request has
 * an `error` to handle; it has a `response`; it has a `controller` (chosen by a listener or the
 * router); or `none` of these.
 */
export type PhaseOutcome = 'error' | 'response' | 'controller' | 'none';

/** Events the request machine accepts. */
export type RequestMachineEvent =
  | { type: 'request.received'; exchange: MachineExchange }
  | { type: 'listener.settled'; dispatch: number; ok: true }
  | { type: 'listener.settled'; dispatch: number; ok: false; error: unknown }
  | { type: 'phase.done'; outcome: PhaseOutcome; streamed: boolean }
  | { type: 'controller.done'; result: unknown; isResponse: boolean }
  | { type: 'controller.failed'; error: unknown }
  | { type: 'request.aborted' }
  | { type: 'subrequest.done' }
  | { type: 'subrequest.failed' }
  | { type: 'body.finished' };

/** The machine's own data: the request it runs, its sub-request actor, and where it is in the request. */
export interface RequestMachineContext {
  readonly exchange: MachineExchange | null;
  readonly subRequest: AnyActorRef | null;
  readonly role: RequestMachineInput['role'];
  /** Set once this request's error was answered (by the sub-request, or the minimal 500): a second error is not rendered again. */
  readonly errorRendered: boolean;
}

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

/** What a phase's exit checks: the outcome `phase.done` carries, or the machine's own context. */
type PhaseGuard = 'hasError' | 'hasResponse' | 'hasController' | 'isSubRequest' | 'isErrorAlreadyRendered' | 'hasStreamedBody';
type PhaseAction =
  | 'failNoController'
  | 'resolveArguments'
  | 'failNoViewResponse'
  | 'renderMinimalError'
  | 'markErrorRendered'
  | 'prepareErrorSubRequest'
  | 'sendResponse'
  | 'finishRequest'
  | 'reportSubRequest'
  | 'reportSubRequestFailed';

/**
 * A kernel phase: its listeners are dispatched on entry; while one of them is pending the phase
 * waits for `listener.settled`; once every listener ran the dispatcher sends `phase.done` with
 * the phase's outcome, and the first exit whose guard holds is taken.
 */
function phase(
  name: KernelPhase,
  description: string,
  onError: OnListenerError,
  exits: readonly { guard?: PhaseGuard; target: string; actions?: PhaseAction | readonly PhaseAction[] }[],
) {
  return {
    description,
    entry: dispatch(name, onError),
    on: {
      'listener.settled': { actions: 'resumeDispatch' as const },
      'phase.done': exits.map(({ guard, target, actions }) => ({
        ...(guard === undefined ? {} : { guard }),
        target,
        actions: actions === undefined ? [] : typeof actions === 'string' ? [actions] : [...actions],
      })),
    },
  };
}

/** True when `event` is the `phase.done` of a phase that ended with `outcome`. */
function endedWith(event: RequestMachineEvent, outcome: PhaseOutcome): boolean {
  return event.type === 'phase.done' && event.outcome === outcome;
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
 *      back to it, and tells its parent with `subrequest.done` (or `subrequest.failed`: the parent
 *      answers a minimal 500) → kernel.response …
 *   request.aborted (client gone) → aborted → kernel.terminate → idle
 *
 * Each phase ends with `phase.done`, which the dispatcher sends once every listener ran, with the
 * phase's outcome (error, response, controller or none); its exits are chosen from that event
 * and the machine's own context, never from the request's mutable state. A phase whose listener
 * returned a promise waits for `listener.settled` first; after synchronous listeners `phase.done`
 * is handled at once, in the same `send`. The controller ends with `controller.done` or
 * `controller.failed`, sent at once by a synchronous controller.
 */
export const requestMachine = setup({
    types: {
      context: {} as RequestMachineContext,
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
      releaseRequest: assign({ exchange: null, errorRendered: false }),
      markErrorRendered: assign({ errorRendered: true }),
      finishRequest: notProvided,
      // A sub-request actor tells its parent how its request ended: with a response from
      // finish_request, without one (its own phase had no response, or it failed).
      reportSubRequest: sendParent(({ event }) => (endedWith(event, 'response') ? { type: 'subrequest.done' as const } : { type: 'subrequest.failed' as const })),
      reportSubRequestFailed: sendParent({ type: 'subrequest.failed' }),
      // Leaving error_sub_request before the child answered (the client went away): the child
      // abandons the sub-request too, and is idle for the parent's next one. Ignored when idle.
      abortSubRequest: sendTo(({ context }) => subRequestActorOf(context.subRequest), { type: 'request.aborted' }),
    },
    // Guards read the event, or the machine's own context: never the request's state.
    guards: {
      hasError: ({ event }) => endedWith(event, 'error'),
      hasResponse: ({ event }) => endedWith(event, 'response'),
      hasController: ({ event }) => endedWith(event, 'controller'),
      isResponseResult: ({ event }) => event.type === 'controller.done' && event.isResponse,
      isSubRequest: ({ context }) => context.role === 'sub',
      isErrorAlreadyRendered: ({ context }) => context.errorRendered,
      // The phase ended with a response whose body is a stream: written chunk by chunk, kernel.terminate waits for its end.
      hasStreamedBody: ({ event }) => event.type === 'phase.done' && event.streamed,
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
      role: input.role,
      errorRendered: false,
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
          { guard: 'isSubRequest', target: 'idle', actions: ['finishRequest', 'reportSubRequestFailed'] },
          { guard: 'isErrorAlreadyRendered', target: to('kernel.finish_request'), actions: ['renderMinimalError', 'markErrorRendered'] },
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
          'subrequest.done': { target: to('kernel.response'), actions: ['useErrorSubResponse', 'markErrorRendered'] },
          'subrequest.failed': { target: to('kernel.response'), actions: ['renderMinimalError', 'markErrorRendered'] },
          // The child stopped with an error of its own (a bug): the parent still answers.
          'xstate.error.actor.subRequest': { target: to('kernel.response'), actions: ['renderMinimalError', 'markErrorRendered'] },
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
