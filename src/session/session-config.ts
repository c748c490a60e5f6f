/** The session cookie's name: set here, read by the listener and kept out of profiles. */
export const SESSION_COOKIE = 'LOUPESESSID';

/** The session settings read from the environment: SESSION_LIFETIME (24 minutes by default). */
export interface SessionConfig {
  /** Seconds a session lives in Redis without use. */
  readonly lifetime: number;
  /** The session cookie's name, `LOUPESESSID`. */
  readonly cookieName: string;
}
