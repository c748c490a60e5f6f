/** The remember-me cookie's name: set here, read by the listener and kept out of profiles. */
export const REMEMBER_ME_COOKIE = 'LOUPE_REMEMBERME';

/** The security settings read from the environment: APP_SECRET and REMEMBER_ME_LIFETIME. */
export interface SecurityConfig {
  /** Signs remember-me cookies. */
  readonly secret: string;
  /** Seconds a remember-me cookie stays valid. */
  readonly rememberMeLifetime: number;
  /** The remember-me cookie's name, `LOUPE_REMEMBERME`. */
  readonly rememberMeCookieName: string;
}
