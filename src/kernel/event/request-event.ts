import { type Response } from '../../http/response';
import { KernelEvent } from './kernel-event';

/** kernel.request (Symfony's RequestEvent): a listener may answer at once; the controller is then skipped. */
export class RequestEvent extends KernelEvent {
  get response(): Response | null {
    return this.exchange.response;
  }

  /** Answers the request with `response` and ends the phase: no later listener runs. */
  setResponse(response: Response): void {
    this.exchange.response = response;
    this.stopPropagation();
  }
}
