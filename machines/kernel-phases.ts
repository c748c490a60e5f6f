/**
 * The phases of one request, named as Symfony's HttpKernel names its events. Each is a state of
 * the request machine; listeners subscribe to them by name.
 */
export const KernelEvents = {
  /** Occurs at the very beginning of handling: session, locale, firewall, then routing. A listener may set a response and skip the controller. */
  REQUEST: 'kernel.request',
  /** Occurs once a controller was found for the request; allows changing the controller. */
  CONTROLLER: 'kernel.controller',
  /** Occurs once the arguments for the controller are resolved, just before it is called. */
  CONTROLLER_ARGUMENTS: 'kernel.controller_arguments',
  /** Occurs when the controller returned data rather than a response; a listener turns it into one. */
  VIEW: 'kernel.view',
  /** Occurs once a response exists; allows changing or replacing it before it is sent. */
  RESPONSE: 'kernel.response',
  /** Occurs when a response was generated for a request; resets state the request changed. */
  FINISH_REQUEST: 'kernel.finish_request',
  /** Occurs when an uncaught error appears; listeners log it and the error is rendered by a sub-request. */
  EXCEPTION: 'kernel.exception',
  /** Occurs after the response was written to the client; heavy work (storing the trace) goes here. */
  TERMINATE: 'kernel.terminate',
} as const;

/** The name of a phase, e.g. `kernel.request`: what a listener subscribes to. */
export type KernelPhase = (typeof KernelEvents)[keyof typeof KernelEvents];
