import { type ControllerArgumentsEvent } from './controller-arguments-event';
import { type ControllerEvent } from './controller-event';
import { type ExceptionEvent } from './exception-event';
import { type FinishRequestEvent } from './finish-request-event';
import { type RequestEvent } from './request-event';
import { type ResponseEvent } from './response-event';
import { type TerminateEvent } from './terminate-event';
import { type ViewEvent } from './view-event';

/** The event each phase hands its listeners. */
export interface PhaseEventMap {
  'kernel.request': RequestEvent;
  'kernel.controller': ControllerEvent;
  'kernel.controller_arguments': ControllerArgumentsEvent;
  'kernel.view': ViewEvent;
  'kernel.response': ResponseEvent;
  'kernel.finish_request': FinishRequestEvent;
  'kernel.exception': ExceptionEvent;
  'kernel.terminate': TerminateEvent;
}
