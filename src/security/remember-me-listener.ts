import { serializeCookie } from '../http/cookies';
import { type Exchange } from '../kernel/exchange';
import { type Listener } from '../kernel/listener';
import { type FirewallMap } from './firewall-map';
import { RememberMeSigner } from './remember-me-signer';
import { SecurityBagKeys } from './security-bag-keys';
import { type UserProvider } from './user-provider';

export interface RememberMeListenerOptions {
  /** Signs the cookies (the application secret). */
  readonly secret: string;
  /** Seconds a cookie stays valid. */
  readonly lifetime: number;
  readonly cookieName: string;
  readonly users: UserProvider;
  /** Remember-me applies on the firewalls that enable it. */
  readonly firewalls: FirewallMap;
  /** Epoch milliseconds; tests move the clock. */
  readonly now?: () => number;
}

/**
 * Remember-me (Symfony's RememberMeAuthenticator): kernel.request (9, just before the
 * firewall's access check at 8) authenticates from a signed cookie when no credentials were
 * sent; a rejected cookie is cleared. kernel.response (-900, before the session listener at
 * -1000) sets the cookie when a login asked for it.
 */
export function createRememberMeListener(options: RememberMeListenerOptions): Listener {
  const { cookieName, lifetime, users, firewalls } = options;
  const signer = new RememberMeSigner(options.secret);
  const now = options.now ?? Date.now;
  const bindingOf = (identifier: string): string | null => users.loadUser(identifier)?.passwordHash ?? null;

  const authenticate = (exchange: Exchange): void => {
    const { request } = exchange;
    if (!exchange.isMainRequest || exchange.user !== null || request.header('authorization') !== undefined) return;
    const token = request.cookies[cookieName];
    if (token === undefined || firewalls.match(request.path)?.rememberMe !== true) return;
    const check = signer.check(token, Math.floor(now() / 1000), bindingOf);
    const user = check.valid ? users.loadUser(check.payload.u) : null;
    if (!check.valid || user === null) {
      exchange.bag.set(SecurityBagKeys.REMEMBER_ME_CLEAR, true);
      exchange.trace.log('info', 'Remember-me cookie rejected.', { reason: check.valid ? 'unknown_user' : check.reason });
      return;
    }
    exchange.user = { identifier: user.identifier, roles: user.roles, via: 'remember_me' };
    exchange.trace.log('info', `Authenticated "${user.identifier}" with a remember-me cookie.`);
  };

  const writeCookie = (exchange: Exchange): void => {
    const { response } = exchange;
    if (!exchange.isMainRequest || response === null) return;
    const requested = exchange.bag.get(SecurityBagKeys.REMEMBER_ME_REQUESTED);
    const user = typeof requested === 'string' ? users.loadUser(requested) : null;
    if (user !== null) {
      const expiresAt = Math.floor(now() / 1000) + lifetime;
      const value = signer.sign({ u: user.identifier, e: expiresAt }, user.passwordHash);
      response.headers.append('Set-Cookie', serializeCookie(cookieName, value, { maxAge: lifetime }));
    } else if (exchange.bag.get(SecurityBagKeys.REMEMBER_ME_CLEAR) === true) {
      response.headers.append('Set-Cookie', serializeCookie(cookieName, '', { maxAge: 0 }));
    }
  };

  return {
    name: 'RememberMeListener',
    subscriptions: {
      'kernel.request': { priority: 9, handle: authenticate },
      'kernel.response': { priority: -900, handle: writeCookie },
    },
  };
}
