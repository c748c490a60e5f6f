/** The session cookie's name: set here, read by the listener and kept out of profiles. */
export const SESSION_COOKIE = 'LOUPESESSID';

export interface SessionConfig {
  /** Seconds a session lives in Redis without use. */
  readonly lifetime: number;
  readonly cookieName: string;
}
