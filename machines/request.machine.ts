import { fromPromise, sendTo, setup } from 'xstate';
import { type Exchange } from '../src/kernel/exchange';
import { type KernelPhase } from '../src/kernel/kernel-events';

/** Events the request machine accepts. */
export type RequestEvent =
  | { type: 'request.received' }
  | { type: 'controller.done'; result: unknown }
  | { type: 'controller.failed'; error: unknown }
  | { type: 'request.aborted' };

/**
 * State keys are the kernel phase names, which contain dots; XState reads a dot in a target as
 * a path separator, so targets escape it.
 */
function to(state: string): string {
  return state.replace(/\./g, '\\.');
}

function dispatch(phase: KernelPhase): { type: 'dispatch'; params: { phase: KernelPhase } } {
  return { type: 'dispatch', params: { phase } };
}

function subRequestOf(exchange: Exchange): Exchange {
  if (exchange.subRequest === null) throw new Error('error_sub_request entered without a prepared sub-request');
  return exchange.subRequest;
}

const notProvided = (): never => {
  throw new Error('The request machine runs with the kernel implementations: use createKernelMachine().');
};

/**
 * One request, from the copied uWS request to the written response, through the phases of
 * Symfony's HttpKernel. The machine decides the order; src/kernel provides what each step does.
 *
 *   received → kernel.request → kernel.controller → kernel.controller_arguments
 *      → [controller_pending → controller_settled] → (kernel.view) → kernel.response
 *      → kernel.finish_request → sending → kernel.terminate → done
 *   any fallible phase --error--> kernel.exception → error_sub_request (this same machine as a
 *      child, with the error controller) → kernel.response …
 *   request.aborted (client gone) → aborted → kernel.terminate → done
 */
export const requestMachine = setup({
  types: {
    context: {} as { exchange: Exchange },
    input: {} as Exchange,
    output: {} as Exchange,
    events: {} as RequestEvent,
  },
  actions: {
    dispatch: (_: unknown, _params: { phase: KernelPhase }) => notProvided(),
    recordState: (_: unknown, _params: { state: string }) => notProvided(),
    resolveController: notProvided,
    resolveArguments: notProvided,
    callController: notProvided,
    storeControllerResult: notProvided,
    storeControllerError: notProvided,
    requireViewResponse: notProvided,
    prepareErrorSubRequest: notProvided,
    useErrorSubResponse: notProvided,
    renderMinimalError: notProvided,
    sendResponse: notProvided,
    markAborted: notProvided,
    finishTrace: notProvided,
  },
  guards: {
    hasError: notProvided,
    hasResponse: notProvided,
    isControllerPending: notProvided,
    isSubRequest: notProvided,
    isErrorAlreadyRendered: notProvided,
    hasSubRequestFailed: notProvided,
  },
  actors: {
    // Replaced by the provided machine itself (see createKernelMachine): the error
    // sub-request is a child actor of this same machine.
    handleSubRequest: fromPromise<Exchange, Exchange>(async () => notProvided()),
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
      description: 'The request was copied out of uWS; the machine starts itself on the next step.',
      entry: [{ type: 'recordState', params: { state: 'received' } }, sendTo(({ self }) => self, { type: 'request.received' })],
      on: { 'request.received': { target: to('kernel.request') } },
    },
    'kernel.request': {
      description: 'Session, locale and firewall handling, then route matching. A listener may answer at once.',
      entry: dispatch('kernel.request'),
      always: [
        { guard: 'hasError', target: to('kernel.exception') },
        { guard: 'hasResponse', target: to('kernel.response') },
        { target: to('kernel.controller'), actions: 'resolveController' },
      ],
    },
    'kernel.controller': {
      description: 'A controller was found for the route; listeners may replace it.',
      entry: dispatch('kernel.controller'),
      always: [
        { guard: 'hasError', target: to('kernel.exception') },
        { target: to('kernel.controller_arguments'), actions: 'resolveArguments' },
      ],
    },
    'kernel.controller_arguments': {
      description: 'Arguments are resolved; the controller is called (it may return a promise).',
      entry: [dispatch('kernel.controller_arguments'), 'callController'],
      always: [
        { guard: 'hasError', target: to('kernel.exception') },
        { guard: 'isControllerPending', target: 'controller_pending' },
        { guard: 'hasResponse', target: to('kernel.response') },
        { target: to('kernel.view') },
      ],
    },
    'controller_pending': {
      description: 'An async controller is running; the machine waits for it to settle.',
      entry: { type: 'recordState', params: { state: 'controller_pending' } },
      on: {
        'controller.done': { target: 'controller_settled', actions: 'storeControllerResult' },
        'controller.failed': { target: to('kernel.exception'), actions: 'storeControllerError' },
      },
    },
    'controller_settled': {
      description: 'The async controller resolved: a response goes on, data goes to kernel.view.',
      entry: { type: 'recordState', params: { state: 'controller_settled' } },
      always: [{ guard: 'hasResponse', target: to('kernel.response') }, { target: to('kernel.view') }],
    },
    'kernel.view': {
      description: 'The controller returned data, not a response; a view listener must make one.',
      entry: [dispatch('kernel.view'), 'requireViewResponse'],
      always: [{ guard: 'hasError', target: to('kernel.exception') }, { target: to('kernel.response') }],
    },
    'kernel.response': {
      description: 'Response filtering: cache directives, profiler, robots directive, session save, remember-me.',
      entry: dispatch('kernel.response'),
      always: [{ guard: 'hasError', target: to('kernel.exception') }, { target: to('kernel.finish_request') }],
    },
    'kernel.finish_request': {
      description: 'Locale, router context, session, firewall and asset state are reset.',
      entry: dispatch('kernel.finish_request'),
      always: [{ guard: 'isSubRequest', target: 'done' }, { target: 'sending' }],
    },
    'kernel.exception': {
      description: 'An error escaped a phase: listeners log and record it; a sub-request will render it.',
      entry: dispatch('kernel.exception'),
      always: [
        { guard: 'isSubRequest', target: 'failed' },
        { guard: 'isErrorAlreadyRendered', target: to('kernel.finish_request'), actions: 'renderMinimalError' },
        { guard: 'hasResponse', target: to('kernel.response') },
        { target: 'error_sub_request', actions: 'prepareErrorSubRequest' },
      ],
    },
    'error_sub_request': {
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
    sending: {
      description: 'The response is written once, inside cork(); nothing is written after an abort.',
      entry: [{ type: 'recordState', params: { state: 'sending' } }, 'sendResponse'],
      always: { target: to('kernel.terminate') },
    },
    aborted: {
      description: 'The client went away before the response was written; pending work is abandoned.',
      entry: [{ type: 'recordState', params: { state: 'aborted' } }, 'markAborted'],
      always: { target: to('kernel.terminate') },
    },
    'kernel.terminate': {
      description: 'After the response is on the wire: the finished trace goes to the profile writer.',
      entry: dispatch('kernel.terminate'),
      always: { target: 'done' },
    },
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
