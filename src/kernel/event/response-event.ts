import { type Response } from '../../http/response';
import { KernelEvent } from './kernel-event';

/** kernel.response (Symfony's ResponseEvent): the machine enters this phase only with a response. */
export class ResponseEvent extends KernelEvent {
  /** The response about to be sent; listeners may change it in place. */
  get response(): Response {
    return this.exchange.requireResponse();
  }

  /** Replaces the response. */
  setResponse(response: Response): void {
    this.exchange.response = response;
  }
}
