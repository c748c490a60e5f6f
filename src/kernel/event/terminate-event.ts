import { type LoupeResponse } from '../../http/response';
import { KernelEvent } from './kernel-event';

/** kernel.terminate (Symfony's TerminateEvent): the response is on the wire, or the client left (`null`). */
export class TerminateEvent extends KernelEvent {
  /** The response sent; `null` when the client left before it was written (a sub-request: the response it made). */
  get response(): LoupeResponse | null {
    return this.exchange.sent || this.exchange.parent !== null ? this.exchange.response : null;
  }

  /** True when the client disconnected before the response was written. */
  get aborted(): boolean {
    return this.exchange.aborted;
  }
}
