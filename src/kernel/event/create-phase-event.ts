import { type Exchange } from '../exchange';
import { type KernelPhase } from '../kernel-events';
import { ControllerArgumentsEvent } from './controller-arguments-event';
import { ControllerEvent } from './controller-event';
import { ExceptionEvent } from './exception-event';
import { FinishRequestEvent } from './finish-request-event';
import { type KernelEvent } from './kernel-event';
import { RequestEvent } from './request-event';
import { ResponseEvent } from './response-event';
import { TerminateEvent } from './terminate-event';
import { ViewEvent } from './view-event';

const EVENT_CLASSES: Readonly<Record<KernelPhase, new (exchange: Exchange) => KernelEvent>> = {
  'kernel.request': RequestEvent,
  'kernel.controller': ControllerEvent,
  'kernel.controller_arguments': ControllerArgumentsEvent,
  'kernel.view': ViewEvent,
  'kernel.response': ResponseEvent,
  'kernel.finish_request': FinishRequestEvent,
  'kernel.exception': ExceptionEvent,
  'kernel.terminate': TerminateEvent,
};

/** The event of `phase` for one exchange; a new one each time the phase runs. */
export function createPhaseEvent(phase: KernelPhase, exchange: Exchange): KernelEvent {
  return new EVENT_CLASSES[phase](exchange);
}
