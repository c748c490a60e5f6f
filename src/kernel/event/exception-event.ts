import { type LoupeResponse } from '../../http/response';
import { KernelEvent } from './kernel-event';

/**
 * kernel.exception (Symfony's ExceptionEvent): the error that escaped a phase. A listener may
 * answer with a response of its own (no error sub-request then) or replace the error.
 */
export class ExceptionEvent extends KernelEvent {
  /** The error to render: what was thrown (any value), or what a listener set with `setError`. */
  get error(): unknown {
    return this.exchange.handlingError;
  }

  /** Replaces the error to render (Symfony's setThrowable). */
  setError(error: unknown): void {
    this.exchange.handlingError = error;
  }

  /** The response a listener set with `setResponse`, or `null` (the error is then rendered). */
  get response(): LoupeResponse | null {
    return this.exchange.response;
  }

  /** Answers with `response` instead of rendering the error, and ends the phase. */
  setResponse(response: LoupeResponse): void {
    this.exchange.response = response;
    this.stopPropagation();
  }
}
