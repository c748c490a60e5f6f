import { type Controller, type ControllerArguments } from '../controller';
import { KernelEvent } from './kernel-event';

/** kernel.controller_arguments (Symfony's ControllerArgumentsEvent): the arguments the controller will get. */
export class ControllerArgumentsEvent extends KernelEvent {
  get controller(): Controller {
    return this.exchange.requireController();
  }

  get arguments(): ControllerArguments {
    return this.exchange.resolveArguments();
  }

  setArguments(args: ControllerArguments): void {
    this.exchange.arguments = args;
  }
}
