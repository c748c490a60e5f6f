import { type LoupeResponse } from '../../http/response';
import { type Controller } from '../controller';
import { KernelEvent } from './kernel-event';

/**
 * kernel.request (Symfony's RequestEvent): a listener may answer at once, and the controller is
 * then skipped; or choose the controller, which the router then leaves alone.
 */
export class RequestEvent extends KernelEvent {
  /** The response a listener answered with, or `null`. */
  get response(): LoupeResponse | null {
    return this.exchange.response;
  }

  /** Answers the request with `response` and ends the phase: no later listener runs. */
  setResponse(response: LoupeResponse): void {
    this.exchange.response = response;
    this.stopPropagation();
  }

  /** The controller chosen so far: by a listener, or by the router (kernel.request 32). */
  get controller(): Controller | null {
    return this.exchange.controller;
  }

  /**
   * Chooses the controller from a listener that runs before the router (priority above 32): the
   * router then matches nothing, and the request goes through kernel.controller and the later
   * phases as a routed one. Unlike setResponse the phase goes on, so that the firewall and the
   * other listeners still run. The profiler shows its name as `_controller`.
   */
  setController(controller: Controller): void {
    this.exchange.controller = controller;
    this.request.attributes.set('_controller', controller.name);
  }
}
