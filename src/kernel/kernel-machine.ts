import { type AnyActorRef, type DoneActorEvent } from 'xstate';
import { requestMachine, type RequestEvent } from '../../machines/request.machine';
import { HttpError } from '../errors/http-error';
import { LoupeError } from '../errors/loupe-error';
import { Response } from '../http/response';
import { type Controller } from './controller';
import { describeValue } from './describe-value';
import { dispatchPhase } from './dispatch-phase';
import { type Exchange } from './exchange';
import { type ListenerRegistry } from './listener-registry';
import { minimalErrorResponse } from './minimal-error-response';

/** What the request machine needs from the kernel that runs it. */
export interface KernelMachineDeps {
  readonly listeners: ListenerRegistry;
  readonly errorController: Controller;
  /** Writes a finished main response; false when the client is gone. */
  readonly send: (exchange: Exchange) => boolean;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function storeResult(exchange: Exchange, result: unknown): void {
  if (result instanceof Response) exchange.response = result;
  else exchange.controllerResult = result;
}

/** Sends to a request actor only while it still runs: an async controller may settle after an abort. */
function deliver(actor: AnyActorRef, event: RequestEvent): void {
  if (actor.getSnapshot().status === 'active') actor.send(event);
}

/**
 * The request machine with the kernel's implementations, and itself as the actor of its error
 * sub-request. One machine per kernel; one actor of it per request.
 */
export function createKernelMachine(deps: KernelMachineDeps): typeof requestMachine {
  const { listeners, errorController } = deps;
  const machine = requestMachine.provide({
    actions: {
      dispatch: ({ context }, { phase }) => dispatchPhase(listeners, context.exchange, phase),
      recordState: ({ context }, { state }) => context.exchange.trace.enter(state),
      resolveController: ({ context: { exchange } }) => {
        if (exchange.controller !== null || exchange.error !== null) return;
        exchange.fail(
          new HttpError(
            'LOUPE_ERR_HTTP_NOT_FOUND',
            `Unable to find the controller for path "${exchange.request.path}". The route is wrongly configured.`,
          ),
        );
      },
      resolveArguments: ({ context: { exchange } }) => {
        const { request } = exchange;
        const params: Record<string, string> = {};
        for (const [key, value] of request.attributes) {
          if (!key.startsWith('_') && typeof value === 'string') params[key] = value;
        }
        exchange.arguments = {
          request,
          params,
          session: exchange.session,
          user: exchange.user,
          locale: request.locale,
          error: exchange.renderedError,
          exchange,
        };
      },
      callController: ({ context: { exchange }, self }) => {
        const { controller } = exchange;
        if (exchange.error !== null || controller === null || exchange.arguments === null) return;
        try {
          const result = controller.handle(exchange.arguments);
          if (!isThenable(result)) return storeResult(exchange, result);
          exchange.controllerPending = true;
          result.then(
            (value) => deliver(self, { type: 'controller.done', result: value }),
            (error: unknown) => deliver(self, { type: 'controller.failed', error }),
          );
        } catch (error) {
          exchange.fail(error);
        }
      },
      storeControllerResult: ({ context: { exchange }, event }) => {
        exchange.controllerPending = false;
        if (event.type === 'controller.done') storeResult(exchange, event.result);
      },
      storeControllerError: ({ context: { exchange }, event }) => {
        exchange.controllerPending = false;
        if (event.type === 'controller.failed') exchange.fail(event.error);
      },
      requireViewResponse: ({ context: { exchange } }) => {
        if (exchange.response !== null || exchange.error !== null) return;
        const result = exchange.controllerResult;
        const hint = result === undefined || result === null ? ' Did you forget to add a return statement somewhere in your controller?' : '';
        exchange.fail(
          new LoupeError(
            'LOUPE_ERR_KERNEL_CONTROLLER_NO_RESPONSE',
            `The controller must return a "Response" object but it returned ${describeValue(result)}.${hint}`,
          ),
        );
      },
      prepareErrorSubRequest: ({ context: { exchange } }) => {
        exchange.createErrorSubRequest(exchange.handlingError, errorController);
      },
      useErrorSubResponse: ({ context: { exchange }, event }) => {
        const sub = (event as unknown as DoneActorEvent<Exchange>).output;
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
        exchange.errorRendered = true;
      },
      renderMinimalError: ({ context: { exchange } }) => {
        const cause = exchange.subRequest?.errors[0] ?? exchange.error ?? exchange.handlingError;
        exchange.trace.log('critical', 'Exception thrown when handling an exception.', { error: describeValue(cause) });
        // Kept with the request's errors, so the profile shows why the answer is the bare 500.
        exchange.errors.push(new LoupeError('LOUPE_ERR_KERNEL_ERROR_RENDERING_FAILED', 'Rendering the error page failed; a minimal 500 was sent.', { cause }));
        exchange.error = null;
        exchange.response = minimalErrorResponse();
        exchange.errorRendered = true;
      },
      sendResponse: ({ context: { exchange } }) => {
        exchange.response ??= minimalErrorResponse();
        exchange.sent = deps.send(exchange);
      },
      markAborted: ({ context: { exchange } }) => {
        exchange.aborted = true;
        exchange.trace.log('warning', 'The client disconnected before the response was sent.');
      },
      finishTrace: ({ context: { exchange } }) => {
        exchange.trace.finish();
      },
    },
    guards: {
      hasError: ({ context }) => context.exchange.error !== null,
      hasResponse: ({ context }) => context.exchange.response !== null,
      isControllerPending: ({ context }) => context.exchange.controllerPending,
      isSubRequest: ({ context }) => context.exchange.parent !== null,
      isErrorAlreadyRendered: ({ context }) => context.exchange.errorRendered,
      hasSubRequestFailed: ({ event }) => {
        const sub = (event as unknown as DoneActorEvent<Exchange>).output;
        return sub.errors.length > 0 || sub.response === null;
      },
    },
  });
  // The error sub-request is a child actor of this very machine, with its implementations.
  machine.implementations.actors['handleSubRequest'] = machine;
  return machine;
}
