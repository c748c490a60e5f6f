import { type AnyActorRef } from 'xstate';
import { requestMachine, type MachineExchange, type RequestMachineEvent } from '../../machines/request.machine';
import { HttpError } from '../errors/http-error';
import { LoupeError } from '../errors/loupe-error';
import { LoupeResponse } from '../http/response';
import { discardBody } from '../http/response-body';
import { type Controller } from './controller';
import { describeValue } from './describe-value';
import { dispatchPhase, resumePhase } from './dispatch-phase';
import { Exchange } from './exchange';
import { type ListenerRegistry } from './listener-registry';
import { minimalErrorResponse } from './minimal-error-response';
import { isThenable } from './is-thenable';

/** What the request machine needs from the kernel that runs it. */
export interface KernelMachineDeps {
  readonly listeners: ListenerRegistry;
  readonly errorController: Controller;
  /** Writes a finished main response; false when the client is gone. */
  readonly send: (exchange: Exchange) => boolean;
  /** A main request is over: its actor is idle again. */
  readonly release: (exchange: Exchange) => void;
}

/** The machine's context holds the kernel's own exchange while it runs a request (Kernel.handle). */
function exchangeOf(context: { exchange: MachineExchange | null }): Exchange {
  const { exchange } = context;
  if (!(exchange instanceof Exchange)) throw new Error('The request machine was given a request without a kernel Exchange.');
  return exchange;
}

/** The exchange's error sub-request, which error_sub_request is entered with. */
function requireSubRequest(exchange: Exchange): Exchange {
  if (exchange.subRequest === null) throw new Error('No sub-request: the request machine entered error_sub_request without one.');
  return exchange.subRequest;
}

/** What the controller returned, as the machine takes it: a response goes to kernel.response, anything else to kernel.view. */
function controllerDone(result: unknown): RequestMachineEvent {
  return { type: 'controller.done', result, isResponse: result instanceof LoupeResponse };
}

/** Keeps the controller's result where the next phase reads it, as controllerDone classed it. */
function storeResult(exchange: Exchange, event: Extract<RequestMachineEvent, { type: 'controller.done' }>): void {
  if (event.isResponse) exchange.response = event.result as LoupeResponse;
  else exchange.controllerResult = event.result;
}

/**
 * Sends to a request actor only while it still runs `exchange`: a controller may settle after its
 * request was aborted, when the actor is idle or already runs the next request.
 */
function deliver(actor: AnyActorRef, exchange: Exchange, event: RequestMachineEvent): void {
  const snapshot = actor.getSnapshot() as { status: string; context: { exchange: MachineExchange | null } };
  if (snapshot.status === 'active' && snapshot.context.exchange === exchange && !exchange.aborted) actor.send(event);
}

/**
 * The request machine with the kernel's implementations, and itself as the actor of its error
 * sub-requests. One machine per kernel; its actors are long-lived, each runs one request at a time.
 */
export function createKernelMachine(deps: KernelMachineDeps): typeof requestMachine {
  const { listeners, errorController } = deps;
  const machine = requestMachine.provide({
    actions: {
      dispatch: ({ context, self }, { phase, onError }) => dispatchPhase(listeners, exchangeOf(context), phase, onError, self),
      resumeDispatch: ({ context, event, self }) => {
        if (event.type !== 'listener.settled') return;
        resumePhase(exchangeOf(context), event, self);
      },
      recordState: ({ context }, { state }) => exchangeOf(context).trace.enter(state),
      takeError: ({ context }) => {
        // The error replaces whatever response was being built; a listener here may set a new one.
        const exchange = exchangeOf(context);
        exchange.handlingError = exchange.error;
        exchange.error = null;
        // A streamed body the error replaces is never written: its source is let go.
        if (exchange.response !== null) discardBody(exchange.response.body);
        exchange.response = null;
      },
      failNoController: ({ context }) => {
        const exchange = exchangeOf(context);
        exchange.fail(
          new HttpError(
            'LOUPE_ERR_HTTP_NOT_FOUND',
            `Unable to find the controller for path "${exchange.request.path}". The route is wrongly configured.`,
          ),
        );
      },
      resolveArguments: ({ context }) => {
        exchangeOf(context).resolveArguments();
      },
      callController: ({ context, self }) => {
        const exchange = exchangeOf(context);
        const { trace } = exchange;
        let span = -1;
        try {
          const controller = exchange.requireController();
          // Timed from the call to the settle, so an async controller's wait is in its own span.
          span = trace.beginController(controller.name);
          const result = controller.handle(exchange.resolveArguments());
          if (!isThenable(result)) {
            trace.end(span);
            // Handled in this same send, once the controller state is entered: no wait.
            return self.send(controllerDone(result));
          }
          result.then(
            (value) => {
              trace.end(span);
              deliver(self, exchange, controllerDone(value));
            },
            (error: unknown) => {
              trace.end(span);
              deliver(self, exchange, { type: 'controller.failed', error });
            },
          );
        } catch (error) {
          trace.end(span);
          self.send({ type: 'controller.failed', error });
        }
      },
      storeControllerResult: ({ context, event }) => {
        if (event.type === 'controller.done') storeResult(exchangeOf(context), event);
      },
      storeControllerError: ({ context, event }) => {
        if (event.type === 'controller.failed') exchangeOf(context).fail(event.error);
      },
      failNoViewResponse: ({ context }) => {
        const exchange = exchangeOf(context);
        const result = exchange.controllerResult;
        const hint = result === undefined || result === null ? ' Did you forget to add a return statement somewhere in your controller?' : '';
        exchange.fail(
          new LoupeError(
            'LOUPE_ERR_KERNEL_CONTROLLER_NO_RESPONSE',
            `The controller must return a "Response" object but it returned ${describeValue(result)}.${hint}`,
          ),
        );
      },
      prepareErrorSubRequest: ({ context }) => {
        const exchange = exchangeOf(context);
        exchange.createErrorSubRequest(exchange.handlingError, errorController);
      },
      useErrorSubResponse: ({ context }) => {
        const exchange = exchangeOf(context);
        const sub = requireSubRequest(exchange);
        const response = sub.response ?? minimalErrorResponse();
        const error = exchange.handlingError;
        // As HttpKernel::handleThrowable: an error response keeps its status, anything else
        // takes the error's status and headers.
        if (!(response.status >= 400 || response.isRedirect)) {
          if (error instanceof HttpError) {
            response.status = error.statusCode;
            for (const [name, value] of Object.entries(error.headers)) response.headers.set(name, value);
          } else {
            response.status = 500;
          }
        }
        exchange.response = response;
      },
      renderMinimalError: ({ context }) => {
        const exchange = exchangeOf(context);
        const cause = exchange.subRequest?.errors[0] ?? exchange.error ?? exchange.handlingError;
        exchange.trace.log('critical', 'Exception thrown when handling an exception.', { error: describeValue(cause) });
        // Kept with the request's errors, so the profile shows why the answer is the bare 500.
        exchange.errors.push(new LoupeError('LOUPE_ERR_KERNEL_ERROR_RENDERING_FAILED', 'Rendering the error page failed; a minimal 500 was sent.', { cause }));
        exchange.error = null;
        exchange.response = minimalErrorResponse();
      },
      sendResponse: ({ context }) => {
        const exchange = exchangeOf(context);
        exchange.response ??= minimalErrorResponse();
        exchange.sent = deps.send(exchange);
      },
      markAborted: ({ context }) => {
        const exchange = exchangeOf(context);
        exchange.aborted = true;
        if (exchange.response !== null) discardBody(exchange.response.body);
        exchange.trace.log('warning', 'The client disconnected before the response was sent.');
      },
      finishRequest: ({ context }) => {
        const exchange = exchangeOf(context);
        exchange.trace.finish();
        if (exchange.parent === null) deps.release(exchange);
      },
    },
  });
  // The error sub-request is a child actor of this very machine, with its implementations.
  machine.implementations.actors['handleSubRequest'] = machine;
  return machine;
}
