import { type Controller } from '../controller';
import { KernelEvent } from './kernel-event';

/** kernel.controller (Symfony's ControllerEvent): the controller the router chose; a listener may replace it. */
export class ControllerEvent extends KernelEvent {
  get controller(): Controller {
    return this.exchange.requireController();
  }

  setController(controller: Controller): void {
    this.exchange.controller = controller;
  }
}
