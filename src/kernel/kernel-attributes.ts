import { type AuthenticatedUser, type Session } from '../http/session';
import { attributeKey } from './attributes';
import { type LogRecord } from './trace';

/** The attributes the kernel itself knows: a controller gets them as arguments, the profiler records them. */
export const KernelAttributes = {
  /** The user the firewall (or a login) authenticated for this request. */
  USER: attributeKey<AuthenticatedUser>('user'),
  /** The request's session, given by the session listener to main requests. */
  SESSION: attributeKey<Session>('session'),
  /** In an error sub-request: the log of the request whose error it renders (the debug page shows it). */
  PARENT_LOGS: attributeKey<readonly LogRecord[]>('parent_logs'),
  /**
   * The locale the request was handled in, kept by the locale listener when kernel.finish_request
   * gives `request.locale` back, so that the profiler (collecting at kernel.terminate) records it.
   */
  HANDLED_LOCALE: attributeKey<string>('handled_locale'),
} as const;
