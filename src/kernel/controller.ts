import { type LoupeRequest } from '../http/request';
import { type LoupeResponse } from '../http/response';
import { type AuthenticatedUser, type Session } from '../http/session';
import { type Attributes } from './attributes';
import { type Stopwatch } from './stopwatch';
import { type LogLevel } from './trace';

/** What a controller is called with, resolved at kernel.controller_arguments. */
export interface ControllerArguments {
  /** The request being handled. */
  readonly request: LoupeRequest;
  /** Route parameters (defaults applied), without `_route` and `_controller`. */
  readonly params: Readonly<Record<string, string>>;
  /** The lazy session; `null` when the request has none (sub-requests). */
  readonly session: Session | null;
  /** The user the firewall authenticated; `null` for an anonymous request. */
  readonly user: AuthenticatedUser | null;
  /** The request's locale (route `_locale`, else Accept-Language among the enabled locales, else the default). */
  readonly locale: string;
  /** The error being rendered, for the error controller; `null` otherwise. */
  readonly error: unknown;
  /** The request's typed attributes, shared with the listeners (e.g. a login sets the user). */
  readonly attributes: Attributes;
  /** Adds an entry to the request's log (the profiler's Logs panel). */
  readonly log: (level: LogLevel, message: string, context?: Readonly<Record<string, unknown>>) => void;
  /** Times parts of the controller into the request's timeline (the profiler's Performance panel). */
  readonly stopwatch: Stopwatch;
}

/**
 * A controller returns a Response, or data that a kernel.view listener turns into one;
 * it may be async. A throw or a rejection leads to kernel.exception.
 */
export type ControllerHandler = (args: ControllerArguments) => LoupeResponse | unknown | Promise<unknown>;

/** A controller with the name the profiler shows as `_controller`. */
export interface Controller {
  /** Shown as `_controller` in the profiler and logs, e.g. `hello.show`. */
  readonly name: string;
  /** Called once per request with the resolved arguments. */
  readonly handle: ControllerHandler;
  /** Largest accepted request body in bytes, checked once the route matched; the server's limit applies before. */
  readonly maxBodySize?: number;
}
