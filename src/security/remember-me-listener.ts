import { serializeCookie } from '../http/cookies';
import { type RequestEvent } from '../kernel/event/request-event';
import { type ResponseEvent } from '../kernel/event/response-event';
import { KernelAttributes } from '../kernel/kernel-attributes';
import { defineListener, type Listener } from '../kernel/listener';
import { type FirewallMap } from './firewall-map';
import { RememberMeSigner } from './remember-me-signer';
import { SecurityAttributes } from './security-attributes';
import { withLoadedUser, type UserProvider } from './user-provider';

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
  const reject = (event: RequestEvent, reason: string): void => {
    event.attributes.set(SecurityAttributes.REMEMBER_ME_CLEAR, true);
    event.log('info', 'Remember-me cookie rejected.', { reason });
  };

  const authenticate = (event: RequestEvent): void | Promise<void> => {
    const { request } = event;
    if (!event.isMainRequest || event.user !== null || request.header('authorization') !== undefined) return undefined;
    const token = request.cookies[cookieName];
    if (token === undefined || firewalls.match(request.path)?.rememberMe !== true) return undefined;
    const identifier = signer.identifierOf(token);
    if (identifier === null) return reject(event, 'malformed');
    // The user first (the provider may be async), then the signature bound to their password hash.
    return withLoadedUser(users.loadUser(identifier), (user) => {
      const check = signer.check(token, Math.floor(now() / 1000), () => user?.passwordHash ?? null);
      if (!check.valid || user === null) return reject(event, check.valid ? 'unknown_user' : check.reason);
      event.attributes.set(KernelAttributes.USER, { identifier: user.identifier, roles: user.roles, via: 'remember_me' });
      event.log('info', `Authenticated "${user.identifier}" with a remember-me cookie.`);
    });
  };

  const writeCookie = (event: ResponseEvent): void | Promise<void> => {
    const { response, attributes } = event;
    if (!event.isMainRequest) return undefined;
    const requested = attributes.get(SecurityAttributes.REMEMBER_ME_REQUESTED);
    if (requested === undefined) {
      if (attributes.has(SecurityAttributes.REMEMBER_ME_CLEAR)) response.headers.append('Set-Cookie', serializeCookie(cookieName, '', { maxAge: 0 }));
      return undefined;
    }
    return withLoadedUser(users.loadUser(requested), (user) => {
      if (user === null) return;
      const expiresAt = Math.floor(now() / 1000) + lifetime;
      const value = signer.sign({ u: user.identifier, e: expiresAt }, user.passwordHash);
      response.headers.append('Set-Cookie', serializeCookie(cookieName, value, { maxAge: lifetime }));
    });
  };

  return defineListener('RememberMeListener', {
    'kernel.request': [9, authenticate],
    'kernel.response': [-900, writeCookie],
  });
}
