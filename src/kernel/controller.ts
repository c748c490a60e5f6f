import { type AuthenticatedUser, type Session } from '../http/session';
import { type Request } from '../http/request';
import { type Response } from '../http/response';
import { type Exchange } from './exchange';

/** What a controller is called with, resolved at kernel.controller_arguments. */
export interface ControllerArguments {
  readonly request: Request;
  /** Route parameters (defaults applied), without `_route` and `_controller`. */
  readonly params: Readonly<Record<string, string>>;
  /** The lazy session; `null` when the request has none (sub-requests). */
  readonly session: Session | null;
  readonly user: AuthenticatedUser | null;
  readonly locale: string;
  /** The error being rendered, for the error controller; `null` otherwise. */
  readonly error: unknown;
  readonly exchange: Exchange;
}

/**
 * A controller returns a Response, or data that a kernel.view listener turns into one;
 * it may be async. A throw or a rejection leads to kernel.exception.
 */
export type ControllerHandler = (args: ControllerArguments) => Response | unknown | Promise<unknown>;

/** A controller with the name the profiler shows as `_controller`. */
export interface Controller {
  readonly name: string;
  readonly handle: ControllerHandler;
  /** Largest accepted request body in bytes; `0` means the route takes no body. */
  readonly maxBodySize?: number;
}
