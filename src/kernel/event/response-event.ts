import { type LoupeResponse } from '../../http/response';
import { KernelEvent } from './kernel-event';

/** kernel.response (Symfony's ResponseEvent): the machine enters this phase only with a response. */
export class ResponseEvent extends KernelEvent {
  /** The response about to be sent; listeners may change it in place. */
  get response(): LoupeResponse {
    return this.exchange.requireResponse();
  }

  /** Replaces the response. */
  setResponse(response: LoupeResponse): void {
    this.exchange.response = response;
  }
}
