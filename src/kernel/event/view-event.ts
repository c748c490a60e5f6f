import { type LoupeResponse } from '../../http/response';
import { KernelEvent } from './kernel-event';

/** kernel.view (Symfony's ViewEvent): the controller returned data; a listener turns it into a response. */
export class ViewEvent extends KernelEvent {
  /** What the controller returned. */
  get controllerResult(): unknown {
    return this.exchange.controllerResult;
  }

  /** The response a listener set, or `null`; still `null` after the last listener is a 500 (LOUPE_ERR_KERNEL_CONTROLLER_NO_RESPONSE). */
  get response(): LoupeResponse | null {
    return this.exchange.response;
  }

  /** Sets the response and ends the phase. */
  setResponse(response: LoupeResponse): void {
    this.exchange.response = response;
    this.stopPropagation();
  }
}
