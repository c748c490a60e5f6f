import { type AuthenticatedUser, type Session } from '../http/session';
import { type Request } from '../http/request';
import { type Response } from '../http/response';
import { type Controller, type ControllerArguments } from './controller';
import { Trace } from './trace';

let nextId = 1;

/**
 * The state of one request while its machine runs: the request, the response being built,
 * the controller, the error being handled and the trace. Plain data and value objects only;
 * the uWS objects stay in the adapter.
 */
export class Exchange {
  readonly id = nextId++;
  readonly request: Request;
  /** The exchange that started this one as its error sub-request, or `null` for a main request. */
  readonly parent: Exchange | null;
  readonly trace = new Trace();
  response: Response | null = null;
  controller: Controller | null = null;
  arguments: ControllerArguments | null = null;
  /** What the controller returned, while it is not yet a Response. */
  controllerResult: unknown = undefined;
  /** True while an async controller runs. */
  controllerPending = false;
  /** The error not yet handled; kernel.exception takes it. */
  error: unknown = null;
  /** The error kernel.exception took and is handling. */
  handlingError: unknown = null;
  /** Every error raised while handling this request, in order. */
  readonly errors: unknown[] = [];
  /** The error this exchange renders, for an error sub-request. */
  readonly renderedError: unknown;
  /** True once an error response was produced for this exchange. */
  errorRendered = false;
  subRequest: Exchange | null = null;
  session: Session | null = null;
  user: AuthenticatedUser | null = null;
  /** Set when the client went away before the response was written. */
  aborted = false;
  /** Set once the response was handed to the client. */
  sent = false;
  /** Free-form state of listeners for this request (e.g. a remember-me cookie to set). */
  readonly bag = new Map<string, unknown>();

  constructor(request: Request, parent: Exchange | null = null, renderedError: unknown = null) {
    this.request = request;
    this.parent = parent;
    this.renderedError = renderedError;
  }

  get isMainRequest(): boolean {
    return this.parent === null;
  }

  /** Records `error` as the one to handle next. */
  fail(error: unknown): void {
    this.error = error;
    this.errors.push(error);
  }

  /** The exchange that renders `error`: a GET for the error controller, same request data. */
  createErrorSubRequest(error: unknown, errorController: Controller): Exchange {
    const sub = new Exchange(this.request.duplicate('GET'), this, error);
    sub.request.attributes.set('_controller', errorController.name);
    sub.request.attributes.set('exception', error);
    const format = this.request.attributes.get('_format');
    if (format !== undefined) sub.request.attributes.set('_format', format);
    sub.controller = errorController;
    this.subRequest = sub;
    return sub;
  }
}
