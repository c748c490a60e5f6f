import { type Controller } from '../controller';
import { KernelEvent } from './kernel-event';

/** kernel.controller (Symfony's ControllerEvent): the controller the router chose; a listener may replace it. */
export class ControllerEvent extends KernelEvent {
  /** The controller chosen so far: the router's, or the one a listener set. */
  get controller(): Controller {
    return this.exchange.requireController();
  }

  /** Replaces the controller that will be called. */
  setController(controller: Controller): void {
    this.exchange.controller = controller;
  }
}
