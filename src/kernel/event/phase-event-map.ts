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
  /** Handed to kernel.request listeners. */
  'kernel.request': RequestEvent;
  /** Handed to kernel.controller listeners. */
  'kernel.controller': ControllerEvent;
  /** Handed to kernel.controller_arguments listeners. */
  'kernel.controller_arguments': ControllerArgumentsEvent;
  /** Handed to kernel.view listeners. */
  'kernel.view': ViewEvent;
  /** Handed to kernel.response listeners. */
  'kernel.response': ResponseEvent;
  /** Handed to kernel.finish_request listeners. */
  'kernel.finish_request': FinishRequestEvent;
  /** Handed to kernel.exception listeners. */
  'kernel.exception': ExceptionEvent;
  /** Handed to kernel.terminate listeners. */
  'kernel.terminate': TerminateEvent;
}
