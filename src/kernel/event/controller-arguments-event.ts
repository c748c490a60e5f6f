import { type Controller, type ControllerArguments } from '../controller';
import { KernelEvent } from './kernel-event';

/** kernel.controller_arguments (Symfony's ControllerArgumentsEvent): the arguments the controller will get. */
export class ControllerArgumentsEvent extends KernelEvent {
  /** The controller about to be called. */
  get controller(): Controller {
    return this.exchange.requireController();
  }

  /** The arguments the controller will be called with, resolved on first read. */
  get arguments(): ControllerArguments {
    return this.exchange.resolveArguments();
  }

  /** Replaces the arguments the controller is called with. */
  setArguments(args: ControllerArguments): void {
    this.exchange.arguments = args;
  }
}
